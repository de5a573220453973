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


def call(method, path, body=None, token=None):
    """One request from 127.0.0.2 (see fresh_token); answers (status, parsed JSON or None)."""
    url = urllib.parse.urlsplit(BASE)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10, source_address=("127.0.0.2", 0))
    try:
        headers = {"content-type": "application/json", "accept": "application/json"}
        if token:
            headers["authorization"] = "Bearer " + token
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        answer = connection.getresponse()
        text = answer.read()
        try:
            return answer.status, json.loads(text) if text else None
        except ValueError:
            return answer.status, None
    finally:
        connection.close()


def student(token):
    """Makes the fuzzer's account a student of the demo's campus who signed the agreement, so that the marketplace's
    routes are fuzzed past their gate (a fuzzed unsign or a lapsed membership is mended before the next case)."""
    status, _ = call("GET", "/v1/market/categories", token=token)
    if status != 403:
        return
    email = LOGIN["login"] + "@isar-uni.edu"
    if call("GET", "/v1/me/campus", token=token)[0] == 404:
        call("POST", "/v1/me/campus-email", {"email": email}, token)
        mails = [mail for mail in call("GET", "/dev/mailbox")[1] or [] if mail["to"] == email]
        code = next((word for mail in mails for word in mail["text"].replace(".", " ").split() if len(word) == 6 and word.isdigit()), None)
        if code:
            call("POST", "/v1/me/campus-email/verify", {"email": email, "code": code}, token)
    agreement = call("GET", "/v1/market/agreement", token=token)[1] or {}
    call("POST", "/v1/market/agreement/sign", {"version": agreement.get("version", 1)}, token)


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
        token = fresh_token()
        if "/market" in case.path or "/media" in case.path:
            student(token)
        return token

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["Authorization"] = "Bearer " + data
