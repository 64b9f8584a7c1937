#!/usr/bin/env python3
"""Checks the Kubernetes manifests in deploy/kubernetes against the schema of the fields they use.

No cluster and no downloaded schema is needed (kubeconform and kubectl are not installed from the registries this
project uses): every object is checked for its apiVersion and kind, the type of every field it sets, and fields
Kubernetes does not have at that place (a misspelled `readinessProbe` is an error, not a silently ignored key).
Then the manifests are checked against each other and against the registry's command line: the Service selects
the Deployment's pods and targets a named container port; the probes are /health (liveness) and /ready
(readiness) on that port; `serve --database $(VAR) --host 0.0.0.0 --port N` with N the container port; every
$(VAR) is defined; every secretKeyRef names a key of a Secret in the folder; the password comes from
LITEVISION_REGISTRY_DATABASE_PASSWORD; the upload folder is a mounted volume (the root filesystem is read-only).

    scripts/check-deploy.py [FOLDER]      (default: deploy/kubernetes beside this script)

Exit status 0 when everything holds, 1 with one line per problem, 2 when a file cannot be read.
"""

import os
import re
import sys

import yaml

# The schema of the fields the manifests use: a dict is an object (field -> schema), a list [schema] is an array
# of it, a type is a scalar of that type, "any" is anything.
STRING, INT, BOOL = str, int, bool
INT_OR_STRING = (int, str)
LABELS = {"*": STRING}
METADATA = {"name": STRING, "namespace": STRING, "labels": LABELS, "annotations": LABELS}
HTTP_GET = {"path": STRING, "port": INT_OR_STRING, "scheme": STRING, "httpHeaders": [{"name": STRING, "value": STRING}]}
PROBE = {
    "httpGet": HTTP_GET, "initialDelaySeconds": INT, "periodSeconds": INT, "timeoutSeconds": INT,
    "failureThreshold": INT, "successThreshold": INT,
}
SECRET_KEY_REF = {"name": STRING, "key": STRING, "optional": BOOL}
ENV = {"name": STRING, "value": STRING, "valueFrom": {"secretKeyRef": SECRET_KEY_REF}}
CONTAINER = {
    "name": STRING, "image": STRING, "imagePullPolicy": STRING, "command": [STRING], "args": [STRING],
    "env": [ENV], "ports": [{"name": STRING, "containerPort": INT, "protocol": STRING}],
    "livenessProbe": PROBE, "readinessProbe": PROBE, "startupProbe": PROBE,
    "resources": {"requests": {"cpu": INT_OR_STRING, "memory": INT_OR_STRING},
                  "limits": {"cpu": INT_OR_STRING, "memory": INT_OR_STRING}},
    "securityContext": {"allowPrivilegeEscalation": BOOL, "readOnlyRootFilesystem": BOOL, "runAsNonRoot": BOOL,
                        "capabilities": {"drop": [STRING], "add": [STRING]}},
    "volumeMounts": [{"name": STRING, "mountPath": STRING, "readOnly": BOOL}],
}
POD_SPEC = {
    "containers": [CONTAINER], "terminationGracePeriodSeconds": INT,
    "securityContext": {"runAsNonRoot": BOOL, "runAsUser": INT, "runAsGroup": INT, "fsGroup": INT},
    "volumes": [{"name": STRING, "emptyDir": {"sizeLimit": INT_OR_STRING, "medium": STRING}}],
}
SCHEMAS = {
    ("v1", "Secret"): {"apiVersion": STRING, "kind": STRING, "metadata": METADATA, "type": STRING,
                       "stringData": LABELS, "data": LABELS},
    ("apps/v1", "Deployment"): {
        "apiVersion": STRING, "kind": STRING, "metadata": METADATA,
        "spec": {
            "replicas": INT, "selector": {"matchLabels": LABELS},
            "strategy": {"type": STRING, "rollingUpdate": {"maxUnavailable": INT_OR_STRING,
                                                           "maxSurge": INT_OR_STRING}},
            "template": {"metadata": METADATA, "spec": POD_SPEC},
        },
    },
    ("v1", "Service"): {
        "apiVersion": STRING, "kind": STRING, "metadata": METADATA,
        "spec": {"type": STRING, "selector": LABELS,
                 "ports": [{"name": STRING, "port": INT, "targetPort": INT_OR_STRING, "protocol": STRING}]},
    },
}
REQUIRED = {"Secret": ["metadata.name"], "Deployment": ["metadata.name", "spec.selector", "spec.template"],
            "Service": ["metadata.name", "spec.selector", "spec.ports"]}


def check_schema(value, schema, where, problems):
    if schema == "any":
        return
    if isinstance(schema, dict):
        if not isinstance(value, dict):
            problems.append(f"{where}: an object was expected")
            return
        for key, item in value.items():
            if key in schema:
                check_schema(item, schema[key], f"{where}.{key}", problems)
            elif "*" in schema:
                check_schema(item, schema["*"], f"{where}.{key}", problems)
            else:
                problems.append(f"{where}.{key}: not a field Kubernetes has here")
    elif isinstance(schema, list):
        if not isinstance(value, list) or not value:
            problems.append(f"{where}: a non-empty list was expected")
            return
        for index, item in enumerate(value):
            check_schema(item, schema[0], f"{where}[{index}]", problems)
    else:
        types = schema if isinstance(schema, tuple) else (schema,)
        if isinstance(value, bool) and bool not in types or not isinstance(value, types):
            problems.append(f"{where}: {type(value).__name__} where {'/'.join(t.__name__ for t in types)} goes")


def get(value, path):
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def check(folder):
    problems, objects = [], []
    names = sorted(name for name in os.listdir(folder) if name.endswith((".yaml", ".yml")))
    if not names:
        return [f"{folder}: no manifests"]
    for name in names:
        try:
            with open(os.path.join(folder, name)) as file:
                documents = [d for d in yaml.safe_load_all(file) if d is not None]
        except (OSError, yaml.YAMLError) as error:
            print(f"check-deploy: {name}: {error}", file=sys.stderr)
            sys.exit(2)
        for document in documents:
            key = (document.get("apiVersion"), document.get("kind")) if isinstance(document, dict) else None
            where = f"{name}:{key[1] if key else '?'}"
            if key not in SCHEMAS:
                problems.append(f"{where}: unknown apiVersion/kind {key}")
                continue
            check_schema(document, SCHEMAS[key], where, problems)
            problems += [f"{where}: {path} is missing" for path in REQUIRED[key[1]] if get(document, path) is None]
            objects.append((where, document))

    def of_kind(kind):
        return [(w, d) for w, d in objects if d["kind"] == kind]

    secrets = {get(d, "metadata.name"): set((d.get("stringData") or {}) | (d.get("data") or {}))
               for _, d in of_kind("Secret")}
    deployments = of_kind("Deployment")
    if len(deployments) != 1:
        return problems + [f"{folder}: one Deployment expected, found {len(deployments)}"]
    where, deployment = deployments[0]
    labels = get(deployment, "spec.template.metadata.labels") or {}
    selector = get(deployment, "spec.selector.matchLabels") or {}
    if not selector or any(labels.get(k) != v for k, v in selector.items()):
        problems.append(f"{where}: spec.selector.matchLabels does not select the pod template's labels")
    pod = get(deployment, "spec.template.spec") or {}
    containers = pod.get("containers") or []
    registry = next((c for c in containers if "serve" in (c.get("args") or [])), None)
    if registry is None:
        return problems + [f"{where}: no container runs `serve`"]
    ports = {p.get("name"): p.get("containerPort") for p in registry.get("ports") or []}
    args = registry.get("args") or []
    env = {e.get("name"): e for e in registry.get("env") or []}

    def option(name):
        return args[args.index(name) + 1] if name in args and args.index(name) + 1 < len(args) else None

    if not (option("--database") or "").startswith("$(") and not (option("--database") or "").startswith("postgres"):
        problems.append(f"{where}: serve has no --database")
    if option("--host") != "0.0.0.0":
        problems.append(f"{where}: serve must listen on --host 0.0.0.0 in a pod")
    if option("--port") is None or int(option("--port")) not in ports.values():
        problems.append(f"{where}: --port {option('--port')} is not a container port ({sorted(ports.values())})")
    for variable in re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", " ".join(args)):
        if variable not in env:
            problems.append(f"{where}: args use $({variable}), which env does not define")
    if "LITEVISION_REGISTRY_DATABASE_PASSWORD" not in env:
        problems.append(f"{where}: the database password (LITEVISION_REGISTRY_DATABASE_PASSWORD) is not given")
    for name, variable in env.items():
        reference = get(variable, "valueFrom.secretKeyRef")
        if reference and reference.get("key") not in secrets.get(reference.get("name"), set()):
            problems.append(f"{where}: env {name} names key {reference.get('key')} of secret "
                            f"{reference.get('name')}, which no Secret here has")

    def probe_port(probe):
        port = get(probe, "httpGet.port")
        return ports.get(port) if isinstance(port, str) else port

    for probe, path in [("livenessProbe", "/health"), ("readinessProbe", "/ready")]:
        if get(registry, f"{probe}.httpGet.path") != path:
            problems.append(f"{where}: {probe} must GET {path}")
        elif probe_port(registry.get(probe)) != int(option("--port") or 0):
            problems.append(f"{where}: {probe} is not on the registry's port")
    mounts = {m.get("mountPath"): m.get("name") for m in registry.get("volumeMounts") or []}
    volumes = {v.get("name") for v in pod.get("volumes") or []}
    for path, name in mounts.items():
        if name not in volumes:
            problems.append(f"{where}: volumeMount {path} names volume {name}, which the pod does not have")
    if get(registry, "securityContext.readOnlyRootFilesystem") and option("--upload-folder") not in mounts:
        problems.append(f"{where}: the root filesystem is read-only, so --upload-folder must be a mounted volume")

    services = of_kind("Service")
    if not services:
        problems.append(f"{folder}: no Service")
    for where, service in services:
        chosen = get(service, "spec.selector") or {}
        if not chosen or any(labels.get(k) != v for k, v in chosen.items()):
            problems.append(f"{where}: spec.selector does not select the Deployment's pods")
        for port in get(service, "spec.ports") or []:
            target = port.get("targetPort")
            if (target not in ports) if isinstance(target, str) else (target not in ports.values()):
                problems.append(f"{where}: targetPort {target} is not a port of the registry container")
    return problems


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "deploy",
                                                                  "kubernetes")
    problems = check(folder)
    for problem in problems:
        print(f"check-deploy: {problem}")
    if problems:
        sys.exit(1)
    print(f"check-deploy: {os.path.normpath(folder)}: every manifest checked, consistent with the registry")


if __name__ == "__main__":
    main()
