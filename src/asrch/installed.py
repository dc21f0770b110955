"""How this asrch was installed, and the one command that adds the `mcp` extra to it (D39).

`asrch` on PyPI is another project: asrch's distribution is `asrch-cli`, installed from
a checkout (not from the index), so a message that says how to add the extra names the
source this copy came from (pip's `direct_url.json`) and the installer that owns its
environment: `pipx`, `uv tool`, or the environment's own pip.
"""

import json
import os
import shlex
import sys
from importlib import metadata
from urllib.parse import unquote, urlsplit

DISTRIBUTION = "asrch-cli"
"""The name on the package index; the command and the import package stay `asrch`."""

CHECKOUT = "PATH-TO-ASRCH-CHECKOUT"
"""Stands for the source when this copy does not say where it came from."""


def source_of_this_install() -> tuple[str, bool]:
    """Where this copy was installed from (a path, or a URL requirement) and whether it
    is an editable install."""
    try:
        recorded = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        recorded = None
    if not recorded:
        return CHECKOUT, False
    try:
        direct = json.loads(recorded)
        url = str(direct["url"])
        editable = bool(direct.get("dir_info", {}).get("editable", False))
    except (ValueError, KeyError, TypeError, AttributeError):
        return CHECKOUT, False
    parts = urlsplit(url)
    if parts.scheme == "file":
        return unquote(parts.path), editable
    return f"{DISTRIBUTION} @ {url}", editable


def mcp_install_command() -> str:
    """The shell command that installs this copy again with its `mcp` extra, in the
    environment it runs in."""
    source, editable = source_of_this_install()
    if " @ " in source:
        name, url = source.split(" @ ", 1)
        requirement = f"{name}[mcp] @ {url}"
    else:
        requirement = f"{source}[mcp]"
    quoted = shlex.quote(requirement)
    if os.path.exists(os.path.join(sys.prefix, "uv-receipt.toml")):
        return f"uv tool install --reinstall {quoted}"
    if os.path.exists(os.path.join(sys.prefix, "pipx_metadata.json")):
        return f"pipx install --force {quoted}"
    pip = f"{shlex.quote(sys.executable)} -m pip install"
    return f"{pip} -e {quoted}" if editable else f"{pip} {quoted}"


def missing_extra_message(module: str) -> str:
    """The one line `asrch mcp` prints when a module of the `mcp` extra is missing."""
    return (
        f"asrch mcp needs the mcp extra, which is not installed "
        f"(no module {module}); install it with: {mcp_install_command()}"
    )
