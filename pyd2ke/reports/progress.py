"""A one-line progress display for long command-line runs.

Writes to stderr, and only when stderr is a terminal: logs and pipes stay
clean, and a redirected run prints exactly what an interactive one prints
on stdout.
"""

import sys
import time


class Progress:
    """``Progress(label, total)``; call ``step(what)`` before each unit of work
    and ``close()`` at the end. Redraws one line per task (carriage return)."""

    def __init__(self, label, total, stream=None):
        self.label = label
        self.total = total
        self.done = 0
        self.stream = sys.stderr if stream is None else stream
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.perf_counter()
        self._width = 0

    def step(self, what=""):
        self._draw(what)
        self.done += 1

    def close(self):
        self._draw("done")
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()

    def _draw(self, what):
        if not self.enabled:
            return
        filled = int(20 * self.done / max(self.total, 1))
        line = (f"{self.label:<10} [{'#' * filled}{'.' * (20 - filled)}] {self.done}/{self.total} "
                f"{time.perf_counter() - self.start:6.0f} s  {what}")
        # Pad with spaces so a shorter line fully covers the previous one.
        self.stream.write("\r" + line.ljust(self._width))
        self.stream.flush()
        self._width = len(line)
