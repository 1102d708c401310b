#!/usr/bin/env python3
"""The referee's page in a real browser (headless Chromium through Selenium),
against `goref watch --http` on a rendered game that e2e_web.sh started.

usage: e2e_web.py URL PIN EVENTS_FILE WATCH_LOG CONF SCREENSHOT

Checks, printing one line per failure and a closing count (exit 1 on any
failure, 77 when no browser can be driven):
  - every move of the game is drawn on the page, and how long after its
    event reached the page (measured and printed; not a pass/fail bound:
    timings on a shared machine are the benchmark's business);
  - the double move's ruling shows as a banner with its article (17.2);
  - a press without the PIN is refused (the page says so, watch logs it,
    nothing reaches the game);
  - end and count pressed with the PIN: the page shows the count that the
    events file holds;
  - the event stream dropped mid-game and opened again after the last event
    seen: no event lost, none twice (the page's events are the file's lines);
    and a raw stream resumed with the Last-Event-ID header gives the file's
    lines after it;
  - the corners page: a handle dragged, Save with the PIN writes the corners
    to goref.conf;
  - a screenshot of the page.
"""
import json
import os
import sys
import time
import urllib.request

url, pin, events_path, watch_log, conf, shot = sys.argv[1:7]

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
except ImportError:
    print("SKIP: python3-selenium is not installed")
    sys.exit(77)

fails = 0
passes = 0


def check(ok, what):
    global fails, passes
    if ok:
        passes += 1
    else:
        fails += 1
        print("FAIL: " + what)


def wait_for(cond, limit=60.0, step=0.1):
    """Polls cond() until it is true or `limit` seconds went by (a hang guard)."""
    end = time.time() + limit
    while time.time() < end:
        v = cond()
        if v:
            return v
        time.sleep(step)
    return cond()


def lines():
    with open(events_path) as f:
        return [ln for ln in f.read().split("\n") if ln]


def log_text():
    with open(watch_log, errors="replace") as f:
        return f.read()


opts = webdriver.ChromeOptions()
opts.binary_location = "/usr/bin/chromium"
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,1000",
          "--autoplay-policy=no-user-gesture-required"):
    opts.add_argument(a)
try:
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
except Exception as e:  # no browser that can run here
    print("SKIP: headless Chromium cannot be started: %s" % str(e).splitlines()[0])
    sys.exit(77)

try:
    driver.set_script_timeout(30)
    driver.get(url)
    G = lambda expr: driver.execute_script("return window.goref." + expr)
    check(wait_for(lambda: G("es") is not None and driver.find_element(By.ID, "conn").text == "live", 20),
          "the page did not connect to /events")

    # the stream dropped mid-game: closed, events go by, then opened again after the last one seen
    wait_for(lambda: len(G("ids")) >= 2, 60)  # the page has had events through its stream
    driver.execute_script("window.goref.es.close()")
    before = G("last")
    wait_for(lambda: len(lines()) >= before + 4, 60)
    driver.execute_script("window.goref.dropStream()")

    # the game to its end
    check(wait_for(lambda: "the input ended" in log_text(), 120), "the game did not reach its end")
    wait_for(lambda: G("last") >= len(lines()), 10)
    ev = lines()
    moves = [json.loads(x) for x in ev if json.loads(x)["type"] == "move"]
    check(len(moves) >= 10, "only %d moves refereed" % len(moves))

    # every move drawn, and how soon after its event reached the page
    ids, arrived, drawn = G("ids"), G("arrived"), G("drawn")
    delays = []
    for i, line in enumerate(ev):
        e = json.loads(line)
        if e["type"] != "move":
            continue
        n = e["move"]
        check(drawn and len(drawn) >= n and drawn[n - 1] is not None, "move %d (%s) never drawn" % (n, e["point"]))
        if str(i + 1) in arrived and len(drawn) >= n:
            delays.append(drawn[n - 1] - arrived[str(i + 1)])
    if delays:
        print("moves drawn after their event reached the page: %d moves, mean %.1f ms, max %.1f ms"
              % (len(delays), sum(delays) / len(delays), max(delays)))
    check(len(delays) >= 5, "too few moves arrived while the page was open (%d)" % len(delays))
    state = json.loads(urllib.request.urlopen(url + "state.json").read())
    stones = driver.execute_script("return document.querySelectorAll('#board circle.stone').length")
    want = sum(r.count("X") + r.count("O") for r in state["board"])
    check(stones == want, "the board shows %d stones, the record %d" % (stones, want))
    last = state["moves"][-1][1]
    marks = driver.execute_script("return [...document.querySelectorAll('#board circle.last')].map(e => e.dataset.point)")
    check(marks == [last], "the last move marked: %s, expected %s" % (marks, last))

    # the ruling's banner with its article
    first_id = (G("ids") or [0])[0]
    dm_id = next((i + 1 for i, x in enumerate(lines()) if '"type":"double_move"' in x), None)
    check(dm_id is not None and first_id <= dm_id,
          "the page opened (event %s) after the double move (event %s): the machine too slow?" % (first_id, dm_id))
    banners = G("banners")
    dm = [b for b in banners if b["type"] == "double_move"]
    check(len(dm) == 1 and dm[0]["article"] == "17.2" and "Article 17.2" in dm[0]["text"],
          "no banner for the double move with article 17.2: %s" % banners)
    rulings = driver.execute_script("return [...document.querySelectorAll('#log li.ruling')].map(e => e.textContent)")
    check(any("17.2" in r for r in rulings), "the double move not in the page's log: %s" % rulings)

    # a press without the PIN
    n_before = len(lines())
    driver.find_element(By.ID, "pin").clear()
    driver.find_element(By.CSS_SELECTOR, "button[data-act=pass]").click()
    check(wait_for(lambda: "refused" in driver.find_element(By.ID, "opmsg").text, 10),
          "a press without the PIN: the page says '%s'" % driver.find_element(By.ID, "opmsg").text)
    check(wait_for(lambda: "refused pass from 127.0.0.1: no PIN" in log_text(), 10), "no log line for the refused pass")
    time.sleep(0.5)
    check(len(lines()) == n_before and not any('"type":"pass"' in x for x in lines()), "the refused pass reached the game")

    # end and count with the PIN
    driver.find_element(By.ID, "pin").send_keys(pin)
    driver.find_element(By.CSS_SELECTOR, "button[data-act=end]").click()
    check(wait_for(lambda: any('"type":"end"' in x for x in lines()), 10), "end with the PIN: no end event")
    driver.find_element(By.CSS_SELECTOR, "button[data-act=count]").click()
    check(wait_for(lambda: any('"type":"count"' in x for x in lines()), 10), "count with the PIN: no count event")
    cnt = [json.loads(x) for x in lines() if '"type":"count"' in x]
    shown = wait_for(lambda: driver.execute_script(
        "const b = document.getElementById('count'); return b.hidden ? null : [b.dataset.black, b.dataset.white, b.dataset.result, b.textContent]"), 10)
    if cnt and shown:
        c = cnt[-1]
        check(shown[0] == str(c["black"]) and shown[1] == str(c["white"]) and shown[2] == c["result_points"],
              "the page's count %s is not the events' %s" % (shown[:3], (c["black"], c["white"], c["result_points"])))
        check(str(c["dame"]) in shown[3] and str(c["komi"]) in shown[3], "the count's dame and komi not shown: %s" % shown[3])
    else:
        check(False, "the count is not on the page")

    # no event lost, none twice, across the dropped stream
    wait_for(lambda: G("last") >= len(lines()), 10)
    ids, got = G("ids"), G("events")
    ev = lines()
    first = ids[0] if ids else 0
    check(ids == list(range(first, len(ev) + 1)), "the page's event ids are not %d..%d: %s" % (first, len(ev), ids))
    check(got == ev[first - 1:], "the page's events are not the events file's lines %d..%d" % (first, len(ev)))
    check(first <= before, "the stream was not open before it was dropped (first %d, dropped at %d)" % (first, before))
    check(G("resyncs") == 0, "the page was resynced")

    # a raw stream resumed with the Last-Event-ID header
    k = len(ev) - 5
    req = urllib.request.Request(url + "events", headers={"Last-Event-ID": str(k)})
    got_raw = []
    with urllib.request.urlopen(req, timeout=10) as r:
        cur = None
        while len(got_raw) < 5:
            ln = r.readline().decode().rstrip("\n")
            if ln.startswith("id: "):
                cur = int(ln[4:])
            elif ln.startswith("data: "):
                got_raw.append((cur, ln[6:]))
    check(got_raw == [(k + 1 + i, ev[k + i]) for i in range(5)], "Last-Event-ID %d: %s" % (k, got_raw[:2]))

    if shot.endswith(".jpg"):  # smaller, for samples/
        import base64
        data = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "jpeg", "quality": 60})["data"]
        with open(shot, "wb") as f:
            f.write(base64.b64decode(data))
    else:
        driver.save_screenshot(shot)
    check(os.path.getsize(shot) > 10000, "the screenshot is empty")

    # the corners page: a handle dragged, saved with the PIN
    driver.get(url + "calibrate")
    handles = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "circle.handle"), 20)
    check(len(handles) == 4, "the corners page shows %d handles" % len(handles))
    if handles:
        before_c = driver.find_element(By.ID, "coords").text
        ActionChains(driver).click_and_hold(handles[0]).move_by_offset(12, 9).release().perform()
        after_c = driver.find_element(By.ID, "coords").text
        check(before_c != after_c, "dragging a handle did not move the corner")
        driver.find_element(By.ID, "pin").clear()  # the page may hold it from the game's page
        driver.find_element(By.ID, "pin").send_keys(pin)
        driver.find_element(By.CSS_SELECTOR, "#save button[type=submit]").click()
        check(wait_for(lambda: "saved" in log_text() and os.path.exists(conf), 10), "Save: no goref.conf written")
        if os.path.exists(conf):
            with open(conf) as f:
                text = f.read()
            line = [ln for ln in text.splitlines() if ln.startswith("corners")]
            want = [float(x) for x in after_c.split(",")]
            vals = [float(x) for x in line[0].split("=")[1].split("#")[0].split()] if line else []
            check(len(vals) == 8 and all(abs(a - b) < 0.11 for a, b in zip(vals, want)),
                  "goref.conf's corners %s are not the page's %s" % (vals, want))
finally:
    driver.quit()

print("%d passed, %d failed" % (passes, fails))
sys.exit(1 if fails else 0)
