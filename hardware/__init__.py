"""The LED/button panel next to the camera (gpiozero), and its simulated twin."""
