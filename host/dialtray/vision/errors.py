"""The vision package's one error type (no OpenCV needed to catch it)."""

from __future__ import annotations


class VisionError(ValueError):
    """Bad input for the camera code — an image, a reference file, a layout — named in the
    message; commands turn it into one line and exit status 2."""
