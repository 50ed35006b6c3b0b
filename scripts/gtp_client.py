"""A GTP engine in a subprocess, for the scripts: one command at a time,
with a timeout on every response. Used by match.py and latency.py."""

import queue
import shlex
import subprocess
import threading
import time


class EngineError(Exception):
    """An engine crashed, timed out or answered a command with an error."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


class Engine:
    """A GTP engine in a subprocess, with a timeout on every response."""

    def __init__(self, command, name="engine", stderr_path=None):
        """`command`: a shell-like string or an argument list; the engine's
        stderr goes to `stderr_path` (appended) or nowhere."""
        self.name = name
        self.stderr = open(stderr_path, "ab") if stderr_path else None
        args = shlex.split(command) if isinstance(command, str) else list(command)
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.stderr or subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, command, timeout=60.0):
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError("crash", f"{self.name}: cannot write '{command}': {e}")
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.001))
            except queue.Empty:
                raise EngineError("timeout", f"{self.name}: no answer to '{command}' in {timeout}s")
            if line is None:
                raise EngineError("crash", f"{self.name}: exited during '{command}'")
            if line == "" and lines:
                break
            if line == "":
                continue
            lines.append(line)
        text = "\n".join(lines)
        if text.startswith("?"):
            raise EngineError("error", f"{self.name}: '{command}' -> {text}")
        if not text.startswith("="):
            raise EngineError("protocol", f"{self.name}: stray output '{text}'")
        return text[1:].strip()

    def close(self):
        try:
            self.send("quit", timeout=5)
        except EngineError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        if self.stderr:
            self.stderr.close()
