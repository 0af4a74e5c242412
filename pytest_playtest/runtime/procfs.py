"""What /proc and the socket table say about the app's processes: group members, CPU time, state, unread X input."""

from __future__ import annotations

import array
import ctypes
import fcntl
import os
import socket
import subprocess
import termios
from collections.abc import Sequence

#: pidfd_getfd(2): not wrapped by the os module; the number is the same on every Linux architecture.
SYS_PIDFD_GETFD = 438


def group_pids(pgid: int) -> list[int]:
    """Every live process whose process group is ``pgid``."""
    pids = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        # fields after "comm)": state, ppid, pgrp, ...; zombies are dead already
        if int(fields[2]) == pgid and fields[0] != b"Z":
            pids.append(int(entry.name))
    return pids


def unread_display_bytes(pids: Sequence[int]) -> int | None:
    """Bytes the X server has sent to these processes that they have not read yet (None: unknown).

    A live app reads its X connection within milliseconds; one that keeps input waiting is hung, even
    when it sleeps rather than spins. Each socket of the processes is looked at through a copy of its
    descriptor (``pidfd_getfd``), which works in any network namespace (a sandboxed app's X connection
    is invisible to the host's ``ss``); where that is refused, the socket table of ``ss`` is read.
    """
    unread = _unread_through_pidfd(pids)
    return unread if unread is not None else _unread_through_ss(pids)


def _unread_through_pidfd(pids: Sequence[int]) -> int | None:
    """FIONREAD on a copy of each of the processes' sockets connected to an X server; None: not possible."""
    libc = ctypes.CDLL(None, use_errno=True)
    total = 0
    for pid in pids:
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            continue  # gone meanwhile
        try:
            for fd in _socket_fds(pid):
                copy = libc.syscall(SYS_PIDFD_GETFD, pidfd, fd, 0)
                if copy < 0:
                    if ctypes.get_errno() in (1, 38):  # EPERM, ENOSYS: this host does not allow it
                        return None
                    continue
                total += _unread_x_bytes(copy)
        finally:
            os.close(pidfd)
    return total


def _socket_fds(pid: int) -> list[int]:
    fds = []
    try:
        for entry in os.scandir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(entry.path).startswith("socket:"):
                    fds.append(int(entry.name))
            except OSError:
                continue
    except OSError:
        pass
    return fds


def _unread_x_bytes(fd: int) -> int:
    """Unread bytes of the socket ``fd`` (our copy, closed here) when its peer is an X server, else 0."""
    try:
        sock = socket.socket(fileno=fd)
    except OSError:
        os.close(fd)
        return 0
    try:
        if sock.family != socket.AF_UNIX:
            return 0
        peer = sock.getpeername()
        name = peer.decode(errors="replace") if isinstance(peer, bytes) else str(peer)
        if "/.X11-unix/X" not in name:
            return 0
        count = array.array("i", [0])
        fcntl.ioctl(fd, termios.FIONREAD, count)
        return int(count[0])
    except OSError:
        return 0
    finally:
        sock.close()


def _unread_through_ss(pids: Sequence[int]) -> int | None:
    """The same, read from the socket table of ``ss`` (iproute2): sees only this network namespace."""
    try:
        table = subprocess.run(["ss", "-xpn"], capture_output=True, text=True, timeout=5, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    owners = tuple(f"pid={pid}," for pid in pids)
    x_server_ends = set()
    client_ends: list[tuple[int, str]] = []  # (unread bytes, peer inode) of the processes' sockets
    for line in table.splitlines():
        columns = line.split()
        if len(columns) < 8 or not columns[2].isdigit():
            continue
        local_address, local_inode, peer_inode = columns[4], columns[5], columns[7]
        if "/.X11-unix/X" in local_address:
            x_server_ends.add(local_inode)
        elif any(owner in line for owner in owners):
            client_ends.append((int(columns[2]), peer_inode))
    return sum(unread for unread, peer in client_ends if peer in x_server_ends)


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) the process has used so far; None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_state(pid: int) -> str:
    """The one-letter state of a process (R running, S sleeping, Z zombie...); "?" when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0].decode()
    except OSError:
        return "?"
