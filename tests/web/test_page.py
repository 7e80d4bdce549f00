"""The configurator page (examples/web) in headless Chromium, against the native command.

Usage: /usr/bin/python3 tests/web/test_page.py WEB_DIR TRAINSIZE_EXE
(WEB_DIR: build-wasm/web). Serves WEB_DIR on 127.0.0.1 only, then: loads a configuration
from the URL and checks the verdict and the peak equal the command's; changes a field and
sees the page and the URL follow; enters an invalid value and sees the command's message;
plans; opens the single-file page from file://; checks the largest batch that fits, the
facility, buy or rent and goodput against the command's JSON (the buy-or-rent inputs in the
URL; a liquid-cooled rack; a GPU renting stays cheaper on; one without prices). Leaves
page.png in WEB_DIR (the whole page, a run of 2e12 tokens on 32 GPUs).
Needs Debian's chromium, chromium-driver and python3-selenium."""
import functools
import http.server
import json
import os
import re
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


def estimate(job):
    return json.loads(native(["estimate", "--json", "--largest-fit", "true"] + cli(job)).stdout)


def help_default(name):
    """The default `trainsize estimate --help` gives an option ("...; default X)")."""
    out = native(["estimate", "--help"]).stdout
    entry = re.search(r"\n  --%s .*?(?=\n  --|\Z)" % re.escape(name), out, re.S).group(0)
    return re.findall(r"default ([^;()]+)\)", " ".join(entry.split()))[-1].strip()


def usd(x):
    """Dollars as the page writes them, at $1 and above."""
    return "$%s" % format(round(x), ",") if x >= 100 else "$%.2f" % x


def text_of(driver, css):
    return driver.find_element(By.CSS_SELECTOR, css).text


def cells(driver, table):
    """A table's rows as {first cell: second cell}."""
    return {tr.find_elements(By.TAG_NAME, "td")[0].text: tr.find_elements(By.TAG_NAME, "td")[1].text
            for tr in driver.find_elements(By.CSS_SELECTOR, table + " tr")}


def change(driver, name, value):
    el = driver.find_element(By.NAME, name)
    el.clear()
    el.send_keys(value)
    driver.execute_script("arguments[0].dispatchEvent(new Event('change', {bubbles: true}))", el)


def check_owning(driver, want):
    """The largest fit, the facility, buy or rent and goodput: the command's figures."""
    m, s, t = want["memory"], want["system"], want["time"]
    largest = "largest that fits: %s, %s" % (
        "micro-batch {:,}".format(m["max_micro_batch"]) if m["max_micro_batch"] else "no micro-batch",
        "sequence {:,}".format(m["max_seq"]) if m["max_seq"] else "no sequence")
    assert m["max_micro_batch"] or m["max_seq"] or not m["fits"], m
    assert text_of(driver, "#largest").startswith(largest), (text_of(driver, "#largest"), largest)

    facility = cells(driver, "#facility")
    assert facility["racks"].startswith("%d rack" % s["racks"]), facility
    assert ", up to %d " % s["servers_per_rack"] in facility["racks"] and facility["racks"].endswith(" a rack"), facility
    if s["rack_power_watts"]:
        assert facility["fullest rack"].startswith("%.1f kW, " % (s["rack_power_watts"] / 1000)), facility
        assert "%s cooling" % s["cooling"] in facility["fullest rack"], facility
    warn = driver.find_elements(By.CSS_SELECTOR, "#facility .note.warn")
    assert len(warn) == (s["cooling"] == "liquid"), [w.text for w in warn]
    if s["psus_per_server"]:
        assert facility["power supplies"].startswith("%d x %.1f kW, %s (" % (
            s["psus_per_server"], s["psu_watts"] / 1000, s["psu_redundancy"])), facility
    if s["switches"]:
        assert re.match(r"%d switch(es)? in %d tiers?$" % (s["switches"], s["switch_tiers"]),
                        facility["fabric"]), facility
    else:
        assert facility["fabric"].startswith("no scale-out switches"), facility

    system = cells(driver, "#system")
    days = t["wall_seconds"] >= 86400
    wall = "%.1f days" % (t["wall_seconds"] / 86400) if days else "%.1f s" % t["wall_seconds"]
    assert system["time"].startswith(wall + " (wall time"), (system["time"], wall)
    assert system["goodput"] == "%.1f %%" % (100 * t["goodput"]), system["goodput"]
    if t["expected_interruptions"] > 0:
        count, expected = system["interruptions"].split(" ")
        assert expected == "expected" and float(count) == float("%.3g" % t["expected_interruptions"]), system
        if t["checkpoint_interval"] > 0:
            assert system["checkpoints"].startswith("every ") and ", stalling " in system["checkpoints"], system
        else:  # a run shorter than the interval checkpoints nowhere inside it
            assert system["checkpoints"].startswith("none inside the run"), system

    priced = s["capex_usd"] > 0 and s["cost_cloud_usd"] > 0
    assert driver.find_element(By.ID, "buy-rent").is_displayed() == priced
    assert driver.find_element(By.ID, "no-prices").is_displayed() != priced
    if not priced:
        return
    cloud, owned = cells(driver, "#cloud table"), cells(driver, "#owned table")
    assert cloud["up front"] == "nothing", cloud
    if s["cloud_usd_per_month"] >= 1:
        assert cloud["per month"].startswith(usd(s["cloud_usd_per_month"]) + " (the busy hours: "), cloud
    if s["capex_usd"] >= 1:
        assert owned["up front"] == usd(s["capex_usd"]), owned
        assert owned["servers"] == usd(s["capex_servers_usd"]), owned
    if s["own_usd_per_month"] >= 1:
        assert owned["per month"].startswith(usd(s["own_usd_per_month"])), owned
    if s["cost_cloud_usd"] >= 1:
        assert cloud["this run"] == usd(s["cost_cloud_usd"]), cloud
        assert owned["this run"] == usd(s["cost_own_usd"]), owned
    breakeven = text_of(driver, "#breakeven")
    if s["breakeven_months"] > 0:
        assert breakeven.startswith("break-even: owning pays off after %.1f months" % s["breakeven_months"]), breakeven
    else:
        assert "renting stays cheaper" in breakeven, breakeven


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
        check_owning(driver, estimate(JOB))

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

        # 6. Buy or rent: the defaults shown, the inputs followed and kept in the URL.
        run = dict(JOB, gpus="32", tokens="2e12")
        driver.get(base + "?" + "&".join("%s=%s" % kv for kv in run.items()))
        ready(driver)
        check_owning(driver, estimate(run))
        use = driver.find_element(By.NAME, "utilization")
        colo = driver.find_element(By.NAME, "colo-usd-per-kw-month")
        assert use.get_attribute("placeholder") == help_default("utilization"), use.get_attribute("placeholder")
        assert colo.get_attribute("placeholder") == help_default("colo-usd-per-kw-month")
        busy = "%.0f %% of the year" % (100 * float(help_default("utilization")))
        assert busy in cells(driver, "#cloud table")["per month"]
        assert "utilization" not in driver.current_url and "largest-fit" not in driver.current_url
        change(driver, "utilization", "0.5")
        change(driver, "colo-usd-per-kw-month", "150")
        run.update({"utilization": "0.5", "colo-usd-per-kw-month": "150"})
        want = estimate(run)
        WebDriverWait(driver, 10).until(lambda d: text_of(d, "#breakeven").startswith(
            "break-even: owning pays off after %.1f months" % want["system"]["breakeven_months"])
            if want["system"]["breakeven_months"] > 0 else "renting stays cheaper" in text_of(d, "#breakeven"))
        check_owning(driver, want)
        assert "utilization=0.5" in driver.current_url and "colo-usd-per-kw-month=150" in driver.current_url
        assert "50 % of the year" in cells(driver, "#cloud table")["per month"]
        driver.get(driver.current_url)  # the link keeps them
        ready(driver)
        assert driver.find_element(By.NAME, "utilization").get_attribute("value") == "0.5"
        assert driver.find_element(By.NAME, "colo-usd-per-kw-month").get_attribute("value") == "150"
        check_owning(driver, want)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1000, height + 200)
        driver.save_screenshot(os.path.join(WEB, "page.png"))
        driver.set_window_size(1000, 1400)

        # 7. A rack beyond air cooling: the warning-style note (an NVL72 rack; no catalogue prices).
        nvl = {"model": "llama-2-70b", "gpu": "gb200", "gpus": "72", "zero": "3"}
        want = estimate(nvl)
        assert want["system"]["cooling"] == "liquid", want["system"]["cooling"]
        driver.get(base + "?" + "&".join("%s=%s" % kv for kv in nvl.items()))
        ready(driver)
        check_owning(driver, want)
        assert "liquid" in text_of(driver, "#facility .note.warn")

        # 8. Post-training and a vision-language model: the method's reference and the frozen
        # tower shown beside the weights, the peak the command's.
        dpo = {"model": "llava-1.5-7b", "gpu": "h100-80gb", "gpus": "8", "zero": "3", "method": "dpo",
               "images": "1", "freeze-vision": "true"}
        want = estimate(dpo)
        driver.get(base + "?" + "&".join("%s=%s" % kv for kv in dpo.items()))
        ready(driver)
        assert peak(driver) == want["memory"]["peak_total"]
        assert Select(driver.find_element(By.NAME, "method")).first_selected_option.text == "dpo"
        names = text_of(driver, "#bars")
        assert "of which reference model" in names and "of which vision tower" in names, names

        # 9. A GPU renting stays cheaper on (break-even 0).
        small = {"model": "gpt2", "gpu": "rtx-4090", "gpus": "1"}
        want = estimate(small)
        assert want["system"]["breakeven_months"] == 0 and want["system"]["capex_usd"] > 0
        driver.get(base + "?" + "&".join("%s=%s" % kv for kv in small.items()))
        ready(driver)
        check_owning(driver, want)
    finally:
        driver.quit()
        server.shutdown()
    print("web page: URL state, live update, error message, plan, file://, largest fit, facility, "
          "buy or rent, goodput, post-training and a vision tower all as the command")


if __name__ == "__main__":
    main()
