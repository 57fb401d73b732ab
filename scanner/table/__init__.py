"""From the cards read in a frame to a scored table: vote over several frames (``voting``), and
hand the melds (``scanner.vision.grouping``) to the engine in one of the three scan modes
(``modes``)."""
