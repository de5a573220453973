"""Browser tests: a real `plaza demo` on a loopback port, driven by Debian's chromium through selenium."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCREENSHOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "screenshots")
SIZES = {"phone": (360, 740), "desktop": (1280, 900)}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def plaza():
    """Starts `plaza demo` (the binary CI built) on a fresh SQLite file; yields its base URL."""
    binary = os.path.abspath(os.environ.get("PLAZA_BINARY", os.path.join(ROOT, ".build", "debug", "plaza")))
    workdir = tempfile.mkdtemp(prefix="plaza-browser-")
    port = free_port()
    env = dict(os.environ, PLAZA_PORT=str(port), PLAZA_BCRYPT_COST="4",
               PLAZA_DATABASE_URL="sqlite:" + os.path.join(workdir, "plaza.sqlite"))
    log = open(os.path.join(workdir, "plaza.log"), "w")
    server = subprocess.Popen([binary, "demo"], cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            with urllib.request.urlopen(base + "/readyz", timeout=1) as answer:
                if answer.status == 200:
                    break
        except OSError:
            time.sleep(0.1)
    else:
        server.kill()
        raise RuntimeError("plaza demo did not start: " + open(os.path.join(workdir, "plaza.log")).read())
    yield base
    server.terminate()
    server.wait(timeout=20)
    shutil.rmtree(workdir, ignore_errors=True)


def new_browser(size):
    """Headless chromium at phone or desktop width."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(argument)
    width, height = SIZES[size]
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.implicitly_wait(5)
    driver.size_name = size
    return driver


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def browser(request):
    driver = new_browser(request.param)
    yield driver
    driver.quit()


def latest_code(base, email):
    """The six-digit code of the newest mail to `email`, from the dev mailbox."""
    request = urllib.request.Request(base + "/dev/mailbox", headers={"Accept": "application/json"})
    with urllib.request.urlopen(request) as answer:
        mails = [mail for mail in json.load(answer) if mail["to"] == email]
    for word in mails[0]["text"].replace(".", " ").split():
        if len(word) == 6 and word.isdigit():
            return word
    raise AssertionError("no code in " + mails[0]["text"])


def screenshot(driver, name):
    os.makedirs(SCREENSHOTS, exist_ok=True)
    driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}-{driver.size_name}.png"))
