"""Synthetic overhead photographs of Hand and Foot tables, with exact labels.

The recogniser learns from these scenes, the simulated camera shows them, and the vision tests
use them as fixtures: ``model.synth.scene.render_scene(seed, index)`` gives one scene.
"""
