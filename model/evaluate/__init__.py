"""How well the recogniser reads labelled pictures: the harnesses behind ``handfoot eval``.

``scenes`` scores the cards read in rendered scenes (``handfoot synth``) against their labels,
``tables`` whole tables scored by the engine against the true cards', ``photos`` real
photographs labelled in Pascal VOC; ``truth`` gives a scene's labels as the recogniser would
ideally report them. They import the runtime (``scanner.vision``, ``scanner.table``); the
runtime imports them only inside the eval command.
"""
