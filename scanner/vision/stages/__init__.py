"""The stages a frame is read through, in order (``STAGES`` in ``recogniser.py``):

- ``size``: the frame scaled to the scale the size policy proposes (``SizePolicy``)
- ``locate``: the locator's marks, one per corner index
- ``classify``: each mark read by the classifier, held to one deck
- ``recheck``: doubtful marks read again, a list of named rules (turned, refine, closer, …)
- ``verify``: marks the verifier says lie on the table dropped
- ``pair``: indices paired into physical cards
- ``faces``: court cards read again with their faces
- ``melds``: a meld's cards read as sharing a rank, and its hidden cards looked for
- ``tidy``: cards out of proportion dropped, all put back in the frame's own pixels

Each stage is a module with ``NAME`` and ``run(context, work) -> work``, a pure function of the
per-frame :class:`~scanner.vision.stages.records.FrameContext` and the
:class:`~scanner.vision.stages.records.Work` so far (the networks it calls hold no state of a
frame). ``records`` holds those records.
"""
