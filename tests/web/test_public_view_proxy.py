"""The players' view behind nginx as docs/public-view.md configures it (issue 45, item 4): nginx
keeps the desk's page, revalidates it with the desk's entity tag (a ``304`` from the desk, no
body rendered again), and serves the new page once a result has moved the head. Skipped where
nginx is not installed."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from goledger import commands

from ..desk_server import DeskServer, free_port

pytestmark = pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")

DOC = Path(__file__).resolve().parents[2] / "docs" / "public-view.md"


def _server_block(desk_port: int, port: int, folder: Path) -> str:
    """The documented configuration, with this test's ports and folders."""
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"```nginx\n(.*?)```", text, re.S)
    assert block is not None, "docs/public-view.md lost its nginx configuration"
    conf = block.group(1).replace("/var/cache/nginx/goledger", str(folder / "cache"))
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{port};").replace("127.0.0.1:8000", f"127.0.0.1:{desk_port}")
    status = "proxy_cache goledger;\n        add_header X-Cache $upstream_cache_status;"
    return conf.replace("proxy_cache goledger;", status)


def _get(port: int, path: str) -> tuple[str, str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
        return r.headers.get("X-Cache", ""), r.read().decode()


def test_nginx_keeps_and_revalidates_the_desk_pages(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Proxy Cup", 3, "mcmahon", "3d", "20k", None, None, "7.5")
    for surname, rank in (("Sato", "2d"), ("Ito", "2d"), ("Abe", "4k"), ("Mori", "4k")):
        commands.register(db, surname, "X", rank)
    commands.pair(db, 1, "p0001", "p0002", 1, 0)
    commands.pair(db, 1, "p0003", "p0004", 2, 0)
    port = free_port()
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / sub).mkdir()
    with DeskServer(db) as desk:
        conf = tmp_path / "nginx.conf"
        user = "user root;" if os.geteuid() == 0 else ""  # as root, workers would be nobody: no access to tmp_path
        conf.write_text(f"""
{user}
worker_processes 1;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log;
events {{ worker_connections 256; }}
http {{
  access_log off;
  client_body_temp_path {tmp_path}/body; proxy_temp_path {tmp_path}/proxy;
  fastcgi_temp_path {tmp_path}/fastcgi; uwsgi_temp_path {tmp_path}/uwsgi; scgi_temp_path {tmp_path}/scgi;
  {_server_block(desk.port, port, tmp_path)}
}}
""")
        proc = subprocess.Popen(["nginx", "-c", str(conf), "-g", "daemon off;"], stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    assert proc.poll() is None and time.monotonic() < deadline, "nginx did not start"
                    time.sleep(0.05)
            status, first = _get(port, "/?round=1")
            assert status == "MISS" and "Sato" in first
            assert _get(port, "/?round=1") == ("HIT", first)
            time.sleep(2.1)  # past proxy_cache_valid (nginx counts whole seconds): nginx asks the desk with the ETag
            assert _get(port, "/?round=1") == ("REVALIDATED", first)
            commands.result(db, 1, 1, "white")
            time.sleep(2.1)
            status, after = _get(port, "/?round=1")
            assert status in ("EXPIRED", "MISS") and "1-0" in after and after != first
        finally:
            proc.terminate()
            proc.wait(10)
