// Drawing annotations with Cairo: see Annotator.swift
