#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench-ipc: the IPC and read-along figures of `make bench` (issue 16), printed as one JSON object.

  ack        a command written to the unix socket (`--ipc unix:PATH`) to its `ack` read back, one at a time,
             while raudio plays the sample audiobook in real time to the null output: every round trip, then
             the median (milliseconds)
  paint      a `range` event to its highlight painted in headless Chromium (the page of `--web`): the event's
             arrival on a unix-socket client (written by raudio at the same moment as to the page) against the
             page's next animation frame after it set the highlight (epoch clocks of one machine), median ms
  clients    user+system CPU of `raudio speak` (speed 3, real time, null output, 20 s of a corpus book) with no
             client, then with 10 WebSocket clients reading every event: the CPU added, in %

Usage: bench-ipc.py --raudio PATH --book EPUB --audiobook AUDIOBOOK [--runs N] [--seconds S] [--only a,b]
"""

import argparse
import base64
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "locators"))
from webdriver import Browser  # noqa: E402

ENVIRONMENT = dict(os.environ, RAUDIO_NO_STATE="1")


def wait_for_path(path, seconds=20):
    deadline = time.time() + seconds
    while not os.path.exists(path):
        if time.time() > deadline:
            raise RuntimeError("raudio did not create %s" % path)
        time.sleep(0.02)


class LineClient:
    """A unix-socket client: JSON lines with their arrival time (time.time())."""

    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.buffer = b""

    def lines(self):
        while True:
            while b"\n" not in self.buffer:
                chunk = self.socket.recv(65536)
                if not chunk:
                    return
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            yield time.time(), line


def bench_ack(raudio, audiobook, count=500):
    path = os.path.join(tempfile.mkdtemp(prefix="raudio-bench-"), "ipc.sock")
    player = subprocess.Popen([raudio, "play", audiobook, "--output", "null", "--realtime", "--json", "--no-mpris",
                               "--ipc", "unix:" + path], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, env=ENVIRONMENT)
    try:
        wait_for_path(path)
        client = LineClient(path)
        lines = client.lines()
        times = []
        for number in range(count):
            sent = time.perf_counter()
            client.socket.sendall(b'{"command":"volume","value":1,"id":%d}\n' % number)
            for _, line in lines:
                if line.startswith(b'{"v":1,"type":"ack"'):
                    times.append((time.perf_counter() - sent) * 1000)
                    break
        return {"median_ms": statistics.median(times), "p90_ms": sorted(times)[int(len(times) * 0.9)], "count": len(times)}
    finally:
        player.stdin.write(b"quit\n")
        player.stdin.close()
        player.wait(15)


def bench_paint(raudio, book, seconds):
    path = os.path.join(tempfile.mkdtemp(prefix="raudio-bench-"), "ipc.sock")
    player = subprocess.Popen([raudio, "speak", book, "--output", "null", "--realtime", "--speed", "2", "--json", "--no-mpris",
                               "--web", "--ipc", "unix:" + path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=ENVIRONMENT)
    browser = None
    try:
        url = None
        for line in player.stdout:
            event = json.loads(line)
            if event.get("type") == "listening" and "page" in event:
                url = event["page"]
                break
        threading.Thread(target=lambda: [None for _ in player.stdout], daemon=True).start()
        browser = Browser()
        browser.open(url)
        deadline = time.time() + 15
        while not browser.run("return window.raudioPage && window.raudioPage.connected && window.raudioPage.hellos > 0"):
            if time.time() > deadline:
                raise RuntimeError("the page did not connect")
            time.sleep(0.05)
        client = LineClient(path)
        arrivals = []

        def read():
            for arrived, line in client.lines():
                if b'"type":"range"' in line:
                    arrivals.append((arrived, json.loads(line)["locator"].get("text", {}).get("highlight")))
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        time.sleep(seconds)
        player.stdin.write(b"quit\n")
        player.stdin.flush()
        player.wait(15)
        reader.join(5)
        time.sleep(0.5)
        log = browser.run("return window.raudioPage.log.map(e => [e.highlight, e.paintedAt]);")
        # The page's log ends with the words the socket client saw (it connected first): align from the end.
        tail = log[-len(arrivals):] if len(log) >= len(arrivals) else log
        arrivals = arrivals[-len(tail):]
        delays = [(painted / 1000.0 - arrived) * 1000 for (arrived, word), (shown, painted) in zip(arrivals, tail)
                  if painted and word == shown]
        if not delays:
            raise RuntimeError("no painted word matched an event: %d arrivals %s, page log %d %s" % (len(arrivals), arrivals[-3:], len(log), log[-3:]))
        return {"median_ms": statistics.median(delays), "p90_ms": sorted(delays)[int(len(delays) * 0.9)], "count": len(delays)}
    finally:
        if browser:
            browser.close()
        try:
            player.stdin.write(b"quit\n")
            player.stdin.close()
        except BrokenPipeError:
            pass
        player.wait(15)


def websocket_client(port, stop):
    """A WebSocket client that reads every frame until `stop` is set (server frames are not masked)."""
    connection = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (port, key)).encode())
    connection.settimeout(0.5)
    received = 0
    while not stop.is_set():
        try:
            chunk = connection.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            break
        received += len(chunk)
    connection.close()
    return received


def cpu_of_speak(raudio, book, seconds, clients):
    player = subprocess.Popen([raudio, "speak", book, "--output", "null", "--realtime", "--speed", "3", "--json", "--no-mpris", "--web"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENVIRONMENT)
    port = None
    for line in player.stdout:
        event = json.loads(line)
        if event.get("type") == "listening":
            port = int(event["address"].rsplit(":", 1)[1])
            break
    threading.Thread(target=lambda: [None for _ in player.stdout], daemon=True).start()
    stop = threading.Event()
    threads = [threading.Thread(target=websocket_client, args=(port, stop), daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    player.stdin.write(b"quit\n")
    player.stdin.flush()
    _, _, usage = os.wait4(player.pid, 0)
    stop.set()
    return usage.ru_utime + usage.ru_stime


def bench_clients(raudio, book, seconds, runs):
    alone, with_clients = [], []
    for _ in range(runs):
        alone.append(cpu_of_speak(raudio, book, seconds, 0))
        with_clients.append(cpu_of_speak(raudio, book, seconds, 10))
    a, b = statistics.median(alone), statistics.median(with_clients)
    return {"alone_s": a, "alone_range": [min(alone), max(alone)], "clients_s": b,
            "clients_range": [min(with_clients), max(with_clients)], "added_percent": (b - a) / a * 100, "runs": runs}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--raudio", required=True)
    parser.add_argument("--book", required=True)
    parser.add_argument("--audiobook", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--only", default="ack,paint,clients")
    arguments = parser.parse_args()
    only = arguments.only.split(",")
    result = {}
    if "ack" in only:
        result["ack"] = bench_ack(arguments.raudio, arguments.audiobook)
    if "paint" in only:
        result["paint"] = bench_paint(arguments.raudio, arguments.book, arguments.seconds)
    if "clients" in only:
        result["clients"] = bench_clients(arguments.raudio, arguments.book, arguments.seconds, arguments.runs)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
