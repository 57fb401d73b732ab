"""Synthetic card scenes, training, and the shipped ONNX models with their model card."""
