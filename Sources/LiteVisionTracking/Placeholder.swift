// Multi-object tracking: see ObjectTracker.swift
