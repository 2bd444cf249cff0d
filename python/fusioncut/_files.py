"""The files a user names: reading a device profile, writing a report, a plot or a profile.

A path from a user can be anything: a directory, a named pipe (opening it blocks until a
writer comes), ``/dev/zero`` (reading it never ends), ``/proc/self/mem`` (reading it fails),
a symlink loop, a name with a NUL byte or too long for the file system, a binary file.
``read_text`` turns each into a ``FileProblem`` whose text completes "PATH ..." for the
caller to prefix with what it was reading; it never blocks and never reads more than its
limit. ``atomic_output`` writes through a temporary file in the target's directory, replaced
onto the target only once complete, so a failed write (a full disk, an interrupted plot)
leaves an existing file as it was; character devices (``/dev/null``, ``/dev/stdout``) are
written in place.

Nothing here imports torch or numpy.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator

__all__ = ["PLOT_FORMATS", "FileProblem", "atomic_output", "plot_problem", "read_text",
           "writable_problem"]

PLOT_FORMATS = (".png", ".svg", ".pdf")
"""What a plot may be written as: matplotlib chooses the format from the extension (and appends
``.png`` to a name without one, so a name without one is refused)."""


class FileProblem(ValueError):
    """Why a named file cannot be used; the text follows the path ("is a directory")."""


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISCHR, "a character device"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _text_path(path: object) -> str:
    try:
        text = os.fspath(path)
    except TypeError:
        raise FileProblem(f"is a {type(path).__name__}, not a path") from None
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if not text:
        raise FileProblem("is empty; name a file")
    if "\0" in text:
        raise FileProblem("contains a NUL byte")
    return text


def read_text(path: object, limit: int) -> str:
    """The UTF-8 text (a byte-order mark allowed) of the regular file ``path``, at most
    ``limit`` bytes; ``FileProblem`` saying what is wrong otherwise."""
    text_path = _text_path(path)
    try:  # O_NONBLOCK: a named pipe opens at once (and is refused below), never blocks
        fd = os.open(text_path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise FileProblem("does not exist") from None
    except OSError as e:
        raise FileProblem(f"cannot be opened ({e.strerror})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileProblem(f"is {_kind(mode)}, not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise FileProblem(f"cannot be read ({e.strerror})") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileProblem(f"is larger than {limit} bytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise FileProblem(f"is not UTF-8 text (byte 0x{data[e.start]:02x} at offset "
                          f"{e.start})") from None


def writable_problem(path: object) -> str | None:
    """Why ``path`` cannot be written, or None; checked without changing anything there (an
    existing file is not truncated, a probe file is created next to it and removed)."""
    try:
        text_path = _text_path(path)
        try:
            mode = os.stat(text_path).st_mode
        except (FileNotFoundError, NotADirectoryError):
            mode = None
        if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISCHR(mode)):
            return f"is {_kind(mode)}; name a file"
        if mode is not None and stat.S_ISCHR(mode):
            os.close(os.open(text_path, os.O_WRONLY | os.O_NONBLOCK))
            return None
        real = os.path.realpath(text_path)
        parent = os.path.dirname(real) or "."
        if not os.path.isdir(parent):
            return f"directory {os.path.dirname(text_path)!r} does not exist"
        if mode is not None:  # an existing file must itself be writable
            os.close(os.open(real, os.O_WRONLY | os.O_APPEND))
        probe = _temp_name(real)
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        os.unlink(probe)
    except FileProblem as e:
        return str(e)
    except OSError as e:  # a symlink loop, a name too long, no permission, a read-only fs
        return f"not writable ({e.strerror})"
    return None


def plot_problem(path: object) -> str | None:
    """Why a plot cannot be written to ``path`` (``writable_problem``, or an extension that
    names no format in ``PLOT_FORMATS``), or None; nothing is written."""
    problem = writable_problem(path)
    if problem is None and os.path.splitext(_text_path(path))[1].lower() not in PLOT_FORMATS:
        return "name a .png, .svg or .pdf file (the extension chooses the picture's format)"
    return problem


def _temp_name(real: str) -> str:
    """A fresh name next to ``real`` with the same extension (plotting reads the format
    from it)."""
    head, tail = os.path.split(real)
    stem, ext = os.path.splitext(tail)
    return os.path.join(head, f".{stem[:100]}.{secrets.token_hex(4)}.tmp{ext}")


@contextlib.contextmanager
def atomic_output(path: object) -> Iterator[str]:
    """A temporary path to write to; on success it replaces ``path`` (a symlink is written
    through, an existing file keeps its permission bits). A character device is written in
    place. Raises ``OSError`` or ``FileProblem``; on failure nothing at ``path`` changes."""
    text_path = _text_path(path)
    real = os.path.realpath(text_path)
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISCHR(mode):
        yield text_path
        return
    if mode is not None and not stat.S_ISREG(mode):
        raise FileProblem(f"is {_kind(mode)}; name a file")
    temp = _temp_name(real)
    os.close(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))  # umask applies
    try:
        yield temp
        if mode is not None:
            os.chmod(temp, stat.S_IMODE(mode))
        os.replace(temp, real)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
