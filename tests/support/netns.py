"""Other "hosts" on this machine: Linux network namespaces, each joined by a veth link to a
bridge in the root namespace, as machines on one LAN are to a switch.

Inside a namespace, 127.0.0.1 is its own loopback: the PostgreSQL and Redis of the root
namespace are reached only over the link, at the bridge's address (``Network.gateway``).
Needs root (``CAP_NET_ADMIN``) and ``ip`` from iproute2. Names carry this process's id, so
concurrent runs never collide and a run killed before its clean-up leaves nothing the next
one trips over (the next run removes what dead runs left).
"""

from __future__ import annotations

import contextlib
import ipaddress
import itertools
import os
import random
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

IP = shutil.which("ip") or next(
    (path for path in ("/usr/sbin/ip", "/sbin/ip") if os.path.exists(path)), None
)
PREFIX = "mbn"  # every name this module makes starts with it, then the owner's pid
_OWNED = re.compile(rf"^{PREFIX}(\d+)x")
_networks = itertools.count()


def ip(*args: str, check: bool = True) -> str:
    assert IP is not None
    done = subprocess.run([IP, *args], capture_output=True, text=True, timeout=30)
    if check and done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def unavailable() -> str | None:
    """None when network namespaces can be made here, else why not."""
    if IP is None:
        return "no `ip` (iproute2) to make network namespaces"
    if os.geteuid() != 0:
        return "making network namespaces needs root"
    probe = f"{PREFIX}{os.getpid()}xprobe"
    try:
        ip("netns", "add", probe)
    except RuntimeError as exc:
        return f"network namespaces are not permitted here ({exc})"
    ip("netns", "del", probe, check=False)
    return None


@dataclass
class Host:
    """One network namespace: a machine with its own address and its own loopback."""

    name: str
    address: str

    @property
    def prefix(self) -> list[str]:
        """The command prefix that runs a program on this host."""
        assert IP is not None
        return [IP, "netns", "exec", self.name]

    def pids(self) -> list[int]:
        return [int(pid) for pid in ip("netns", "pids", self.name, check=False).split()]

    def kill(self) -> None:
        """Every process on the host gets SIGKILL at once, as when a machine loses power."""
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while self.pids():
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name}: processes survived SIGKILL: {self.pids()}")
            time.sleep(0.05)

    def delete(self) -> None:
        """Kill the host's processes, then delete it: its link goes with it."""
        self.kill()
        ip("netns", "del", self.name, check=False)


@dataclass
class Network:
    """A bridge in the root namespace (at ``gateway``) and hosts linked to it."""

    bridge: str
    gateway: str
    hosts: list[Host] = field(default_factory=list)


def _free_subnet() -> ipaddress.IPv4Network:
    """A /24 in 10.200.0.0/13 that no address or route of this machine touches."""
    used = re.findall(r"(\d+\.\d+\.\d+\.\d+(?:/\d+)?)", ip("-4", "route") + ip("-4", "addr"))
    taken = [ipaddress.ip_network(item, strict=False) for item in used]
    for _ in range(100):
        subnet = ipaddress.IPv4Network(
            f"10.{random.randint(200, 207)}.{random.randint(0, 255)}.0/24"
        )
        if not any(subnet.overlaps(other) for other in taken):
            return subnet
    raise RuntimeError("no free 10.200.0.0/13 subnet for the namespaces")


def _remove_leftovers() -> None:
    """Namespaces and bridges of runs whose process is gone (killed before clean-up)."""
    names = ip("netns", "list", check=False).split("\n")
    links = re.findall(r"^\d+: ([^:@]+)", ip("-o", "link", "show", "type", "bridge"), re.M)
    for name in [line.split(" ")[0] for line in names] + links:
        owned = _OWNED.match(name)
        if owned and not os.path.exists(f"/proc/{owned.group(1)}"):
            if name in links:
                ip("link", "del", name, check=False)
            else:
                Host(name, "").delete()


@contextlib.contextmanager
def network(hosts: int = 2) -> Iterator[Network]:
    """``hosts`` namespaces on one bridge; everything is deleted on the way out."""
    _remove_leftovers()
    # A link's name has at most 15 characters: "mbn" + pid (≤ 7 digits) + "x" + n + "v0".
    tag = f"{PREFIX}{os.getpid()}x{next(_networks)}"
    subnet = _free_subnet()
    addresses = [str(a) for a in subnet.hosts()]
    net = Network(bridge=f"{tag}b", gateway=addresses[0])
    try:
        ip("link", "add", net.bridge, "type", "bridge")
        ip("addr", "add", f"{net.gateway}/{subnet.prefixlen}", "dev", net.bridge)
        ip("link", "set", net.bridge, "up")
        for index in range(hosts):
            host = Host(f"{tag}h{index}", addresses[index + 1])
            ip("netns", "add", host.name)
            net.hosts.append(host)
            # The host's end of the link is its eth0; the root namespace's end joins the bridge.
            ip("link", "add", f"{tag}v{index}", "type", "veth",
               "peer", "name", "eth0", "netns", host.name)  # fmt: skip
            ip("link", "set", f"{tag}v{index}", "master", net.bridge, "up")
            inside = ["netns", "exec", host.name, IP or "ip"]
            ip(*inside, "addr", "add", f"{host.address}/{subnet.prefixlen}", "dev", "eth0")
            ip(*inside, "link", "set", "eth0", "up")
            ip(*inside, "link", "set", "lo", "up")
        yield net
    finally:
        for host in net.hosts:
            host.delete()
        ip("link", "del", net.bridge, check=False)
