// Video decoding and encoding with FFmpeg: see VideoDecoder.swift
