import LiteVisionTestSupport
/// Builds small synthetic `.tflite` files (FlatBuffers written by ``FBWriter``) to reach the parts of the
/// format the shared models do not use: buffers stored outside the FlatBuffer, every metadata process unit,
/// deflated associated files, and deliberately broken structures.
enum ModelFixture {
    static func file(name: String, type: Int8, locale: String? = nil, description: String? = nil) -> FBNode {
        var fields: [Int: FBValue] = [0: .node(.string(name)), 2: .i8(type)]
        if let description { fields[1] = .node(.string(description)) }
        if let locale { fields[3] = .node(.string(locale)) }
        return .table(fields)
    }

    static func processUnit(_ type: UInt8, _ options: [Int: FBValue]) -> FBNode {
        .table([0: .u8(type), 1: .node(.table(options))])
    }

    /// Metadata exercising every field the reader understands.
    static let fullMetadataRoot: FBNode = .table([
        0: .node(.string("Synthetic classifier")),
        1: .node(.string("A model written by the tests.")),
        2: .node(.string("1.0")),
        3: .node(
            .tables([
                .table([
                    0: .node(.string("main")),
                    2: .node(
                        .tables([
                            .table([
                                0: .node(.string("image")),
                                1: .node(.string("An RGB image.")),
                                3: .node(
                                    .table([
                                        0: .u8(2),
                                        1: .node(.table([0: .i8(1), 1: .node(.table([0: .u32(4), 1: .u32(5)]))])),
                                    ])),
                                4: .node(
                                    .tables([
                                        processUnit(
                                            1, [0: .node(.floats([127.5, 127, 126])), 1: .node(.floats([128]))])
                                    ])),
                                5: .node(.table([0: .node(.floats([255])), 1: .node(.floats([0]))])),
                            ])
                        ])),
                    3: .node(
                        .tables([
                            .table([
                                0: .node(.string("probability")),
                                2: .node(.strings(["batch", "class"])),
                                3: .node(
                                    .table([
                                        0: .u8(1), 1: .node(.table([:])), 2: .node(.table([0: .i32(1), 1: .i32(1)])),
                                    ])),
                                4: .node(
                                    .tables([
                                        processUnit(2, [0: .i8(2), 1: .f32(0.25)]),
                                        processUnit(3, [0: .f32(0.4)]),
                                        processUnit(9, [:]),
                                    ])),
                                6: .node(
                                    .tables([
                                        file(name: "labels_fr.txt", type: 2, locale: "fr"),
                                        file(name: "labels.txt", type: 2),
                                        file(name: "calibration.csv", type: 4),
                                    ])),
                            ]),
                            .table([
                                0: .node(.string("boxes")),
                                3: .node(
                                    .table([
                                        0: .u8(3),
                                        1: .node(.table([0: .node(.uint32s([0, 1, 2, 3])), 1: .i8(3), 2: .i8(1)])),
                                    ])),
                            ]),
                            .table([
                                0: .node(.string("audio")),
                                3: .node(.table([0: .u8(4), 1: .node(.table([0: .u32(16_000), 1: .u32(2)]))])),
                            ]),
                        ])),
                    4: .node(.tables([file(name: "vocab.txt", type: 5)])),
                    5: .node(
                        .tables([
                            processUnit(4, [0: .node(.tables([file(name: "vocab.txt", type: 5)]))]),
                            processUnit(6, [0: .node(.string("\\s+"))]),
                        ])),
                    6: .node(.tables([processUnit(5, [0: .node(.tables([file(name: "sp.model", type: 0)]))])])),
                ])
            ])),
        4: .node(.string("LiteVision tests")),
        5: .node(.string("Apache-2.0")),
        6: .node(.tables([file(name: "readme.txt", type: 1, description: "Read me first.")])),
        7: .node(.string("1.2.0")),
    ])

    static func metadata(root: FBNode = fullMetadataRoot, identifier: String = "M001") -> [UInt8] {
        FBWriter.buffer(root: root, identifier: identifier)
    }

    static let inputTensor: FBNode = .table([
        0: .node(.int32s([1, 5, 4, 3])), 1: .i8(3), 2: .u32(0), 3: .node(.string("image")),
        4: .node(.table([2: .node(.floats([0.5])), 3: .node(.int64s([128]))])),
    ])
    static let outputTensor: FBNode = .table([
        0: .node(.int32s([1, 3])), 1: .i8(0), 3: .node(.string("probability")),
        4: .node(.table([2: .node(.floats([])), 3: .node(.int64s([]))])),
    ])
    static let extraTensors: [FBNode] = [
        .table([0: .node(.int32s([1, 1, 4])), 1: .i8(10), 3: .node(.string("boxes"))]),
        .table([0: .node(.int32s([1])), 1: .i8(16), 3: .node(.string("audio"))]),
    ]
    /// One custom operator that reads the input and writes the three outputs, so that the subgraph verifies.
    static let operatorCodes: FBNode = .tables([.table([0: .i8(32), 1: .node(.string("Synthetic")), 3: .i32(32)])])
    static let operators: FBNode = .tables([
        .table([0: .u32(0), 1: .node(.int32s([0])), 2: .node(.int32s([1, 2, 3]))])
    ])

    /// A model whose buffer 1 holds `metadata`, inline or (for models over 2 GB) after the FlatBuffer.
    /// `tail` is appended after everything (an associated-files zip, typically).
    static func model(
        metadata: [UInt8]?, outside: Bool = false, inputIndices: [Int32] = [0],
        subgraphs: Bool = true, metadataBuffer: UInt32 = 1,
        outsideOffsetAdjustment: Int64 = 0, tail: (Int) -> [UInt8] = { _ in [] }
    ) -> [UInt8] {
        func build(offset: UInt64, size: UInt64) -> [UInt8] {
            var buffers: [FBNode] = [.table([:])]
            var modelFields: [Int: FBValue] = [0: .u32(3), 3: .node(.string("Synthetic"))]
            if let metadata {
                buffers.append(
                    outside ? .table([1: .u64(offset), 2: .u64(size)]) : .table([0: .node(.bytes(metadata))]))
                modelFields[6] = .node(
                    .tables([
                        .table([0: .node(.string("min_runtime_version")), 1: .u32(2)]),
                        .table([0: .node(.string("TFLITE_METADATA")), 1: .u32(metadataBuffer)]),
                    ]))
                buffers.append(.table([0: .node(.bytes(Array("2.3.0".utf8) + [0, 0, 0]))]))
            }
            modelFields[4] = .node(.tables(buffers))
            modelFields[1] = .node(operatorCodes)
            if subgraphs {
                modelFields[2] = .node(
                    .tables([
                        .table([
                            0: .node(.tables([inputTensor, outputTensor] + extraTensors)),
                            1: .node(.int32s(inputIndices)),
                            2: .node(.int32s([1, 2, 3])),
                            3: .node(operators),
                            4: .node(.string("main")),
                        ])
                    ]))
            } else {
                modelFields[2] = .node(.tables([]))
            }
            return FBWriter.buffer(root: .table(modelFields), identifier: "TFL3")
        }
        var bytes: [UInt8]
        if outside, let metadata {
            // The offset field's size does not depend on its value: measure, then write for real.
            var flatBuffer = build(offset: 2, size: 0)
            let padded = (flatBuffer.count + 15) / 16 * 16
            let offset = UInt64(Int64(padded) + outsideOffsetAdjustment)
            flatBuffer = build(offset: offset, size: UInt64(metadata.count))
            bytes = flatBuffer + [UInt8](repeating: 0, count: padded - flatBuffer.count) + metadata
        } else {
            bytes = build(offset: 0, size: 0)
        }
        bytes += tail(bytes.count)
        return bytes
    }

    static let frenchLabels = Array("chat\nchien\noiseau\n".utf8)
    static let labels = Array("cat\r\ndog\r\nbird\r\n".utf8)

    /// The zip of this fixture's label files, to append at byte `start`.
    static func labelZip(start: Int, offsetsFromFileStart: Bool = true) -> [UInt8] {
        ZipFixture.archive(
            [
                .init(name: "labels.txt", data: labels, deflate: true),
                .init(name: "labels_fr.txt", data: frenchLabels),
            ], start: start, offsetsFromFileStart: offsetsFromFileStart)
    }
}
