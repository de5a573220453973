"""schemathesis hooks for scripts/contract-fuzz: every generated request is sent signed in, with a session of its own.

Each case logs the demo customer in afresh (no token caching) and carries that access token, so a fuzzed log-out,
session revocation or refresh ends only that case's session and never the sessions of the cases after it.
"""
import http.client
import json
import os
import urllib.parse

import schemathesis

BASE = os.environ["PLAZA_FUZZ_URL"]
LOGIN = {"login": os.environ.get("PLAZA_FUZZ_LOGIN", "carla"), "password": os.environ.get("PLAZA_FUZZ_PASSWORD", "demo-carla-2026")}


def fresh_token():
    # From 127.0.0.2: the fuzzer's own wrong log-ins (from 127.0.0.1) must not lock the address these come from.
    url = urllib.parse.urlsplit(BASE)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10, source_address=("127.0.0.2", 0))
    try:
        connection.request("POST", "/v1/auth/login", body=json.dumps(LOGIN), headers={"content-type": "application/json"})
        answer = connection.getresponse()
        body = answer.read()
        if answer.status != 200:
            raise RuntimeError(f"log-in for the fuzzer answered {answer.status}: {body[:200]!r}")
        return json.loads(body)["accessToken"]
    finally:
        connection.close()


@schemathesis.auth(refresh_interval=None)
class FreshSession:
    """schemathesis's own auth: it still leaves the header out or spoils it where it tests refusals."""

    def get(self, case, ctx):
        return fresh_token()

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["Authorization"] = "Bearer " + data
