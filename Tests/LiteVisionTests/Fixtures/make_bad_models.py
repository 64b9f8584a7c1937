#!/usr/bin/env python3
"""Writes variants of the shared models that break ML Kit's custom-model requirements, for the
bad-input tests. Uses the TFLite schema bindings that ship with ai-edge-litert (object API).

Usage: make_bad_models.py SHARED_MODELS_DIR OUT_DIR
Writes: wrong_input_type.tflite (int16 input), wrong_input_shape.tflite ([1,224,224,4]),
        float_without_normalization.tflite (mobilenet float without its metadata),
        output_3d.tflite (bird with a [1,5,193] output), two_inputs.tflite (the input listed twice).
"""
import os, sys
import flatbuffers
from ai_edge_litert import schema_py_generated as schema

models_dir, out_dir = sys.argv[1], sys.argv[2]


def load(name):
    with open(os.path.join(models_dir, name), "rb") as f:
        buf = f.read()
    return schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(buf, 0))


def save(model, name):
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    with open(os.path.join(out_dir, name), "wb") as f:
        f.write(builder.Output())


def input_tensor(model):
    graph = model.subgraphs[0]
    return graph.tensors[graph.inputs[0]]


m = load("bird.tflite")
input_tensor(m).type = schema.TensorType.INT16
save(m, "wrong_input_type.tflite")

m = load("bird.tflite")
input_tensor(m).shape = [1, 224, 224, 4]
save(m, "wrong_input_shape.tflite")

m = load("mobilenet_v1_025_float.tflite")
m.metadata = [e for e in (m.metadata or []) if e.name not in (b"TFLITE_METADATA", "TFLITE_METADATA")]
save(m, "float_without_normalization.tflite")

m = load("bird.tflite")
graph = m.subgraphs[0]
graph.tensors[graph.outputs[0]].shape = [1, 5, 193]
save(m, "output_3d.tflite")

m = load("bird.tflite")
graph = m.subgraphs[0]
graph.inputs = list(graph.inputs) * 2
save(m, "two_inputs.tflite")
