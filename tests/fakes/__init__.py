"""Stand-ins we own for libraries that only exist on a Raspberry Pi.

A test puts this folder on ``sys.path`` so that ``import picamera2`` finds the fake package
here. Being a package itself (``tests.fakes``) keeps pytest's doctest collection from
importing the fake under the name ``picamera2`` for the whole session.
"""
