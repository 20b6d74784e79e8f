# SPDX-License-Identifier: GPL-3.0-or-later
"""Headless Chromium through chromedriver's W3C WebDriver endpoint, with only the Python standard library.

Used by browser-check.py (`make locators`) and scripts/readalong/page-test.py (the read-along page's tests).
"""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request


class SetupError(Exception):
    """What the tests need is missing (no chromium, no chromedriver, no raudio)."""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Browser:
    """Headless Chromium driven through chromedriver's W3C WebDriver endpoint."""

    def __init__(self):
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        driver = shutil.which("chromedriver") or (
            "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
        if not chromium or not driver:
            raise SetupError("needs Debian chromium and chromium-driver (make deps installs them)")
        self.port = free_port()
        self.logfile = tempfile.TemporaryFile()
        self.driver = subprocess.Popen([driver, "--port=%d" % self.port],
                                       stdout=self.logfile, stderr=self.logfile)
        deadline = time.time() + 30
        while True:
            try:
                if self.call("GET", "/status")["ready"]:
                    break
            except Exception:
                pass
            if time.time() > deadline or self.driver.poll() is not None:
                self.close()
                raise SetupError("chromedriver did not start on port %d" % self.port)
            time.sleep(0.1)
        self.profile = tempfile.mkdtemp(prefix="raudio-chromium-")
        capabilities = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "pageLoadStrategy": "eager",
            "goog:chromeOptions": {"binary": chromium, "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--user-data-dir=" + self.profile]},
        }}}
        try:
            self.session = self.call("POST", "/session", capabilities)["sessionId"]
        except Exception as error:
            self.close()
            raise SetupError("chromium did not start a session: %s" % error)
        self.call("POST", "/session/%s/timeouts" % self.session, {"script": 600000, "pageLoad": 60000})

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request("http://127.0.0.1:%d%s" % (self.port, path), data=data,
                                         method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=900) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as error:
            detail = json.load(error).get("value", {})
            raise RuntimeError("%s: %s" % (detail.get("error"), str(detail.get("message"))[:300]))

    def open(self, url):
        self.call("POST", "/session/%s/url" % self.session, {"url": url})

    def run(self, script, *args):
        return self.call("POST", "/session/%s/execute/sync" % self.session,
                         {"script": script, "args": list(args)})

    def run_async(self, script, *args):
        """Runs a script that calls its last argument with the result (WebDriver's execute/async)."""
        return self.call("POST", "/session/%s/execute/async" % self.session,
                         {"script": script, "args": list(args)})

    def click_at(self, x, y):
        """A real mouse click (pointer actions) at viewport coordinates."""
        self.call("POST", "/session/%s/actions" % self.session, {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "origin": "viewport", "x": int(x), "y": int(y), "duration": 0},
                        {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})

    def window(self):
        return self.call("GET", "/session/%s/window" % self.session)

    def new_window(self):
        return self.call("POST", "/session/%s/window/new" % self.session, {"type": "window"})["handle"]

    def switch_to(self, handle):
        self.call("POST", "/session/%s/window" % self.session, {"handle": handle})

    def close_window(self):
        self.call("DELETE", "/session/%s/window" % self.session)

    def close(self):
        try:
            if getattr(self, "session", None):
                self.call("DELETE", "/session/%s" % self.session)
        except Exception:
            pass
        self.driver.terminate()
        try:
            self.driver.wait(10)
        except subprocess.TimeoutExpired:
            self.driver.kill()
        if getattr(self, "profile", None):
            shutil.rmtree(self.profile, ignore_errors=True)
