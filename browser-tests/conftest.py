"""Browser tests: a real `plaza demo` on a loopback port, driven by Debian's chromium through selenium."""
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCREENSHOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "screenshots")
SIZES = {"phone": (360, 740), "desktop": (1280, 900)}


def settled(read, attempts=5):
    """What `read` reads from a live region that may be drawn again between finding an element and reading it (the
    map's list every 10 s, the wallet's charges at each event): read again from the start, as an eye would."""
    for attempt in range(attempts):
        try:
            return read()
        except StaleElementReferenceException:
            if attempt == attempts - 1:
                raise


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def binary(name):
    """A binary of the debug build CI made (`PLAZA_BINARY` overrides plaza's)."""
    if name == "plaza" and "PLAZA_BINARY" in os.environ:
        return os.path.abspath(os.environ["PLAZA_BINARY"])
    return os.path.join(ROOT, ".build", "debug", name)


def start_demo(port, extra_env=None):
    """Starts `plaza demo` on `port` with a fresh SQLite file; returns (process, workdir) once it is ready."""
    workdir = tempfile.mkdtemp(prefix="plaza-browser-")
    env = dict(os.environ, PLAZA_PORT=str(port), PLAZA_BCRYPT_COST="4",
               PLAZA_DATABASE_URL="sqlite:" + os.path.join(workdir, "plaza.sqlite"), **(extra_env or {}))
    log = open(os.path.join(workdir, "plaza.log"), "w")
    server = subprocess.Popen([binary("plaza"), "demo"], cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            with urllib.request.urlopen(base + "/readyz", timeout=1) as answer:
                if answer.status == 200:
                    return server, workdir
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("plaza demo did not start: " + open(os.path.join(workdir, "plaza.log")).read())


@pytest.fixture(scope="module")
def town():
    """A demo of the test module's own (the crawls and the pseudo-locale check): what the shared demo's journeys
    leave behind (a refund's inbox entry, an extra program) is not theirs to judge, and crawling follows every link."""
    port = free_port()
    server, workdir = start_demo(port)
    yield f"http://127.0.0.1:{port}"
    stop(server, workdir)


def stop(server, workdir=None):
    server.terminate()
    server.wait(timeout=20)
    if workdir:
        shutil.rmtree(workdir, ignore_errors=True)


# A Nominatim-compatible geocoder on loopback, as the Swift tests' GeocoderStandIn: a few made-up addresses of the demo town.
GAZETTEER = [
    ("Marienplatz 1, 80331 München", 48.1374, 11.5755),
    ("Tal 20, 80331 München", 48.1362, 11.5800),
    ("Sendlinger Straße 12, 80331 München", 48.1352, 11.5712),
]


class GeocoderStandIn(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlparse(self.path)
        query = parse_qs(url.query).get("q", [""])[0].lower()
        hits = [{"lat": str(lat), "lon": str(lon), "display_name": name} for name, lat, lon in GAZETTEER if query in name.lower()]
        body = json.dumps(hits if url.path == "/search" else []).encode()
        self.send_response(200 if url.path == "/search" else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def geocoder():
    server = ThreadingHTTPServer(("127.0.0.1", 0), GeocoderStandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


# The Google Wallet service account the browser tests' Plaza signs its save links with: made here by OpenSSL, so that
# the loyalty journey checks a link's RS256 signature with OpenSSL against a public key Plaza never saw.
GOOGLE_WALLET = {"issuer": "3388000000022000001", "account": "plaza-browser@plaza-tests.iam.gserviceaccount.com"}


def google_wallet_env(folder):
    key, public = os.path.join(folder, "google-service-account.pem"), os.path.join(folder, "google-public.pem")
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key], check=True, capture_output=True)
    subprocess.run(["openssl", "pkey", "-in", key, "-pubout", "-out", public], check=True, capture_output=True)
    GOOGLE_WALLET["public"] = public
    return {"PLAZA_GOOGLE_WALLET_ISSUER_ID": GOOGLE_WALLET["issuer"], "PLAZA_GOOGLE_WALLET_SERVICE_ACCOUNT": GOOGLE_WALLET["account"],
            "PLAZA_GOOGLE_WALLET_KEY": key}


@pytest.fixture(scope="session")
def plaza(geocoder, push_receiver):
    """`plaza demo` with its sandbox processor, the geocoder stand-in, a Google Wallet key of the tests' own, and the
    Web Push receiver let through by its origin (as an operator lets a stand-in through); yields its base URL."""
    port = free_port()
    keys = tempfile.mkdtemp(prefix="plaza-keys-")
    # Every journey signs its people up from 127.0.0.1, as a campus behind one NAT address would.
    server, workdir = start_demo(port, {"PLAZA_GEOCODER_URL": geocoder, "PLAZA_PUSH_HOSTS": push_receiver,
                                        "PLAZA_SIGNUPS_PER_ADDRESS": "1000", "PLAZA_CODE_MAILS_PER_ADDRESS": "1000",
                                        **google_wallet_env(keys)})
    yield f"http://127.0.0.1:{port}"
    stop(server, workdir)
    shutil.rmtree(keys, ignore_errors=True)


@pytest.fixture
def stripe_plaza():
    """`plaza demo` on Stripe: the Stripe stand-in of the Swift tests as a process (its hosted pages and signed
    webhooks), and Plaza configured with its test keys as an operator would. Yields Plaza's base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    stand_in = subprocess.Popen([binary("stripe-stand-in"), base + "/v1/webhooks/stripe"], stdout=subprocess.PIPE, text=True)
    line = stand_in.stdout.readline().split()
    if line[:1] != ["listening"]:
        stand_in.kill()
        raise RuntimeError("the Stripe stand-in did not start")
    server, workdir = start_demo(port, {
        "PLAZA_PUBLIC_URL": base, "PLAZA_STRIPE_API_URL": f"http://127.0.0.1:{line[1]}",
        "PLAZA_STRIPE_SECRET_KEY": "sk_test_standin_4eC39HqLyjWDarjtT1zdp7dc",
        "PLAZA_STRIPE_WEBHOOK_SECRET": "whsec_standin_7dc4eC39HqLyjWDarjtT1zdp",
    })
    yield base
    stop(server, workdir)
    stand_in.kill()
    stand_in.wait(timeout=20)


@pytest.fixture(scope="session")
def push_receiver():
    """The Swift tests' Web Push receiver as a process: a push service on loopback that checks each message's VAPID
    signature and decrypts it with the subscription's private key. Yields its base URL (`/control/subscribe`,
    `/control/messages`)."""
    receiver = subprocess.Popen([binary("web-push-receiver")], stdout=subprocess.PIPE, text=True)
    line = receiver.stdout.readline().split()
    if line[:1] != ["listening"]:
        receiver.kill()
        raise RuntimeError("the Web Push receiver did not start")
    yield f"http://127.0.0.1:{line[1]}"
    receiver.kill()
    receiver.wait(timeout=20)


def new_browser(size):
    """Headless chromium at phone or desktop width."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(argument)
    width, height = SIZES[size]
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    # Headless chromium keeps its window at least 500 px wide whatever --window-size says: a phone's 360 px needs
    # the device metrics emulated (the viewport as a phone's, with its overlay scrollbars).
    if width < 500:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    driver.implicitly_wait(5)
    driver.size_name = size
    return driver


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def browser(request):
    driver = new_browser(request.param)
    yield driver
    driver.quit()


def latest_mail(base, email):
    """The text of the newest mail to `email`, from the dev mailbox."""
    request = urllib.request.Request(base + "/dev/mailbox", headers={"Accept": "application/json"})
    with urllib.request.urlopen(request) as answer:
        mails = [mail for mail in json.load(answer) if mail["to"] == email]
    return mails[0]["text"]


def latest_code(base, email):
    """The six-digit code of the newest mail to `email`, from the dev mailbox."""
    request = urllib.request.Request(base + "/dev/mailbox", headers={"Accept": "application/json"})
    with urllib.request.urlopen(request) as answer:
        mails = [mail for mail in json.load(answer) if mail["to"] == email]
    # The newest mail with a code: alerts (a new sign-in) may arrive in between.
    for mail in mails:
        for word in mail["text"].replace(".", " ").split():
            if len(word) == 6 and word.isdigit():
                return word
    raise AssertionError("no code in " + json.dumps(mails))


def screenshot(driver, name):
    """Keeps a picture of the page, which must fit the screen's width (a phone zooms out a page that does not)."""
    os.makedirs(SCREENSHOTS, exist_ok=True)
    driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}-{driver.size_name}.png"))
    width = SIZES[driver.size_name][0]
    wide = driver.execute_script("""
        const limit = arguments[0] + 1;
        // Inside a box that scrolls or clips (a map, a row of pages), an element may reach past the edge.
        const clipped = (e) => {
            for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
                if (getComputedStyle(a).overflowX !== "visible" && a.getBoundingClientRect().right + scrollX <= limit) return true;
            }
            return false;
        };
        return [...document.querySelectorAll("body *")].filter((e) => {
            const box = e.getBoundingClientRect();
            if (box.width === 0 || box.height === 0 || box.right + scrollX <= limit) return false;
            return getComputedStyle(e).position !== "fixed" && !clipped(e);
        }).slice(0, 3).map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + ":" + Math.round(e.getBoundingClientRect().right));
    """, width)
    assert not wide, f"{name} is wider than {width} px: {wide}"
