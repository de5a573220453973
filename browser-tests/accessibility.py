"""axe-core over Plaza's pages (issue 41): the `axe.min.js` that `axe-playwright-python` ships (installed with
`--no-deps`: axe-selenium-python's axe-core predates WCAG 2.1), injected into each page and run for WCAG 2.0, 2.1
and 2.2 A and AA. A crawler finds the pages a role reaches by following links, as a person would."""
import json
import os
import re
from urllib.parse import urljoin, urlparse

import axe_playwright_python
from selenium.common.exceptions import TimeoutException, WebDriverException

AXE = open(os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js")).read()
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# Never followed: leaving, files, the API and its docs' raw contract, anything that changes state on a GET.
SKIP = re.compile(r"^/(logout|v1/|static/|media/|tiles/|dev/|openapi|docs/api/openapi|\.well-known)|/(apple|google)-pass$|\.(pdf|svg|png|pkpass|ics|csv|json|geojson|txt|webmanifest)$")
SECTION = re.compile(r"^/docs/api/[a-z0-9-]+$")
ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b\d+\b", re.I)


def check(driver):
    """The serious and critical violations on the page now, as (rule, impact, [targets], help)."""
    if not driver.execute_script("return !!window.axe"):
        driver.execute_script(AXE)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})"
        ".then((r) => done(JSON.stringify(r.violations)), (e) => done(JSON.stringify({error: String(e)})));", TAGS)
    violations = json.loads(result)
    if isinstance(violations, dict):
        raise AssertionError("axe failed: " + violations["error"])
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3], v["help"]) for v in violations
            if v["impact"] in ("serious", "critical")]


def pattern(link):
    """`/market/listings/3f…?tab=bids` and `/market/listings/9a…` are one page to check: filters and pages of a list
    change its rows, not its kind of markup; so are the API reference's sections (`/docs/api/wallet`)."""
    return SECTION.sub("/docs/api/:section", ID.sub(":id", urlparse(link).path))


def crawl(driver, base, start="/", limit=60, skip=(), checked=None):
    """Pages reachable from `start` by links, one per path pattern, breadth first: [(path, violations)]. A pattern in
    `checked` (another role's, at this width) is only walked through for its links; new ones are added to it."""
    driver.set_script_timeout(60)
    host = urlparse(base).netloc
    seen, queue, found = set(skip), [start], []
    while queue and len(found) < limit:
        link = queue.pop(0)
        if pattern(link) in seen:
            continue
        seen.add(pattern(link))
        try:
            driver.get(base + link)
        except WebDriverException as error:
            if "ERR_NAME_NOT_RESOLVED" in error.msg:
                continue  # redirected off Plaza (Google Wallet's save link): not a page of ours
            raise AssertionError(f"{link} did not load: {error.msg}")
        if urlparse(driver.current_url).netloc != host:
            continue
        if checked is None or pattern(link) not in checked:
            try:
                found.append((link, check(driver)))
            except TimeoutException:
                # A page still busy (a map loading its tiles on a loaded machine): once more, from a fresh load.
                driver.get(base + link)
                found.append((link, check(driver)))
            if checked is not None:
                checked.add(pattern(link))
        for href in driver.execute_script("return [...document.querySelectorAll('a[href]')].map((a) => a.href)"):
            url = urlparse(href)
            if url.scheme not in ("http", "https") or url.netloc != host or SKIP.search(url.path):
                continue
            target = url.path + ("?" + url.query if url.query else "")
            if pattern(target) not in seen:
                queue.append(target)
    return found
