"""_ext/static/goodput-tables.js, on a page of its own in Chromium (no book build): in a table or a command's printed
output, a number stays with its unit and an ISO timestamp whole at line breaks; prose and the characters are left
as they are."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

STATIC = Path(__file__).resolve().parent.parent / "_ext" / "static"

PAGE = """<article class="bd-article">
<p id="prose">every 33.4 min, on 49,152 GPUs</p>
<table><thead><tr><th>M at 49,152 GPUs</th></tr></thead><tbody>
<tr><td id="lever">R_p 22 min \u2192 18.3 min</td></tr>
<tr><td id="range">95% interval 170 min to 222 min (14.2 to 21 min), 2.3 TB at 5.88 GB/s</td></tr>
<tr><td id="stamp">2025-01-06T00:02:00Z</td></tr>
<tr><td id="plain">checkpoint after this step, 5th one, 85%</td></tr>
</tbody></table>
<div class="cell_output"><div class="output stream"><pre id="plan">restart time, R     18.3 min
  start-up 12.24 min (2 min + 6,144 nodes x 0.1 s)</pre></div></div>
</article>"""


@pytest.mark.browser
def test_numbers_keep_their_units_and_timestamps_stay_whole_in_tables(chromium: Any) -> None:
    page = chromium.new_page(viewport={"width": 200, "height": 800})
    try:
        page.set_content(PAGE)
        texts = page.evaluate("() => Object.fromEntries(Array.from(document.querySelectorAll('[id]')).map(e => [e.id, e.textContent]))")
        page.add_script_tag(path=str(STATIC / "goodput-tables.js"))
        kept = page.evaluate("""() => Object.fromEntries(Array.from(document.querySelectorAll('[id]')).map(e => [e.id,
            Array.from(e.querySelectorAll('.goodput-nowrap')).map(s => s.textContent)]))""")
        after = page.evaluate("() => Object.fromEntries(Array.from(document.querySelectorAll('[id]')).map(e => [e.id, e.textContent]))")
        stamps = page.evaluate("() => Array.from(document.querySelectorAll('.goodput-timestamp')).map(s => s.innerHTML)")
    finally:
        page.close()
    assert after == texts  # only spans were added
    assert kept["prose"] == []
    assert kept["lever"] == ["22 min", "18.3 min"]
    assert kept["range"] == ["170 min", "222 min", "21 min", "2.3 TB", "5.88 GB/s"]
    assert kept["stamp"] == ["2025-01-06T", "00:02:00Z"]
    assert stamps == ['<span class="goodput-nowrap">2025-01-06T</span><wbr><span class="goodput-nowrap">00:02:00Z</span>']
    assert kept["plain"] == []
    assert kept["plan"] == ["18.3 min", "12.24 min", "2 min", "6,144 nodes", "0.1 s"]
