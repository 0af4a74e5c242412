"""What /proc and the socket table say about the app's processes: group members, CPU time, state, unread X input."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence


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
    when it sleeps rather than spins. Read from the socket table of ``ss`` (iproute2).
    """
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
