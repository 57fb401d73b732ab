"""From the cards read in a frame to a scored table: group cards into melds (``grouping``),
vote over several frames (``voting``), and hand the melds to the engine in one of the three
scan modes (``modes``)."""
