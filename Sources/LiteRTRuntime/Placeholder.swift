// Runtime wrapper: see RuntimeLibrary.swift
