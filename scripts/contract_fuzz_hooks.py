"""schemathesis hooks for scripts/contract-fuzz: every generated request is sent signed in, with a session of its own.

Each case logs the demo customer in afresh (no token caching) and carries that access token, so a fuzzed log-out,
session revocation or refresh ends only that case's session and never the sessions of the cases after it.
"""
import json
import os
import urllib.request

import schemathesis

BASE = os.environ["PLAZA_FUZZ_URL"]
LOGIN = {"login": os.environ.get("PLAZA_FUZZ_LOGIN", "carla"), "password": os.environ.get("PLAZA_FUZZ_PASSWORD", "demo-carla-2026")}


def fresh_token():
    request = urllib.request.Request(
        BASE + "/v1/auth/login", data=json.dumps(LOGIN).encode(), headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)["accessToken"]


@schemathesis.auth(refresh_interval=None)
class FreshSession:
    """schemathesis's own auth: it still leaves the header out or spoils it where it tests refusals."""

    def get(self, case, ctx):
        return fresh_token()

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["Authorization"] = "Bearer " + data
