"""The configurator page (examples/web) in headless Chromium, against the native command.

Usage: /usr/bin/python3 tests/web/test_page.py WEB_DIR TRAINSIZE_EXE
(WEB_DIR: build-wasm/web). Serves WEB_DIR on 127.0.0.1 only, then: loads a configuration
from the URL and checks the verdict and the peak equal the command's; changes a field and
sees the page and the URL follow; enters an invalid value and sees the command's message;
plans; opens the single-file page from file://. Leaves page.png in WEB_DIR.
Needs Debian's chromium, chromium-driver and python3-selenium."""
import functools
import http.server
import json
import os
import subprocess
import sys
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

WEB, EXE = os.path.abspath(sys.argv[1]), sys.argv[2]
JOB = {"model": "llama-2-7b", "gpu": "a100-80gb", "gpus": "8", "zero": "3", "seq": "4096"}


def native(args, ok=True):
    proc = subprocess.run([EXE] + args, capture_output=True, text=True)
    assert (proc.returncode == 0) == ok, proc.stderr
    return proc


def cli(job):
    return [a for k, v in job.items() for a in ("--" + k, v)]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve():
    handler = functools.partial(Quiet, directory=WEB)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def browser():
    options = webdriver.ChromeOptions()
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1000,1400",
                "--allow-file-access-from-files"):
        options.add_argument(arg)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def ready(driver):
    WebDriverWait(driver, 30).until(
        lambda d: d.execute_script("return document.body.dataset.ready === '1'"))


def peak(driver):
    return int(driver.find_element(By.ID, "verdict").get_attribute("data-peak-total"))


def main():
    server = serve()
    base = "http://127.0.0.1:%d/index.html" % server.server_address[1]
    driver = browser()
    try:
        # 1. A configuration from the URL: the command's verdict and peak.
        driver.get(base + "?" + "&".join("%s=%s" % kv for kv in JOB.items()))
        ready(driver)
        want = json.loads(native(["estimate", "--json"] + cli(JOB)).stdout)
        assert driver.find_element(By.ID, "verdict").text == "FITS"
        assert peak(driver) == want["memory"]["peak_total"], (peak(driver), want["memory"]["peak_total"])
        assert Select(driver.find_element(By.NAME, "model")).first_selected_option.text == "llama-2-7b"

        # 2. A field changed: the page and the URL follow.
        gpus = driver.find_element(By.NAME, "gpus")
        gpus.clear()
        gpus.send_keys("1")
        driver.execute_script("arguments[0].dispatchEvent(new Event('change', {bubbles: true}))", gpus)
        one = dict(JOB, gpus="1")
        want = json.loads(native(["estimate", "--json"] + cli(one)).stdout)
        WebDriverWait(driver, 10).until(lambda d: peak(d) == want["memory"]["peak_total"])
        assert "gpus=1" in driver.current_url
        verdict = "FITS" if want["memory"]["fits"] else "DOES NOT FIT"
        assert driver.find_element(By.ID, "verdict").text == verdict
        driver.save_screenshot(os.path.join(WEB, "page.png"))

        # 3. An invalid value: the command's own message.
        mb = driver.find_element(By.NAME, "micro-batch")
        mb.send_keys("0")
        driver.execute_script("arguments[0].dispatchEvent(new Event('change', {bubbles: true}))", mb)
        error = driver.find_element(By.ID, "error")
        WebDriverWait(driver, 10).until(lambda d: error.is_displayed())
        message = native(["estimate", "--json"] + cli(dict(one, **{"micro-batch": "0"})), ok=False).stderr
        assert "trainsize: " + error.text + "\n" == message, (error.text, message)
        assert error.get_attribute("data-option") == "micro-batch"

        # 4. The plan tab: the command's best candidate first.
        driver.get(base + "?model=gpt2&tokens=1e9")
        ready(driver)
        driver.find_element(By.ID, "tab-plan").click()
        want = json.loads(native(["plan", "--json", "--model", "gpt2", "--tokens", "1e9"]).stdout)
        rows = driver.find_elements(By.CSS_SELECTOR, "#candidates tr")
        assert len(rows) == len(want["candidates"]) + 1
        first = [c.text for c in rows[1].find_elements(By.TAG_NAME, "td")]
        assert first[0] == want["candidates"][0]["gpu"] and first[1] == str(want["candidates"][0]["gpus"])

        # 5. The single-file page from file://.
        driver.get("file://" + os.path.join(WEB, "index-single.html") + "?model=gpt2&gpus=1")
        ready(driver)
        want = json.loads(native(["estimate", "--json", "--model", "gpt2", "--gpus", "1"]).stdout)
        assert peak(driver) == want["memory"]["peak_total"]
    finally:
        driver.quit()
        server.shutdown()
    print("web page: URL state, live update, error message, plan and file:// all as the command")


if __name__ == "__main__":
    main()
