"""Case files with rubrics for the semantic tier's tests: a rubric alone, and one beside a rule."""

from __future__ import annotations

from pathlib import Path

from tests.casefiles import case_yaml

RUBRIC = "语气友好、不生硬：通过＝像朋友推荐；不通过＝命令口吻或冷冰冰的清单"
ANSWERS = {
    "good": "1. Bose QC45\n2. Apple AirPods Pro\n3. 华为 FreeBuds\n这三款都挺适合你，看预算挑就好～",
    "cold": "1. Bose QC45\n2. Apple AirPods Pro\n3. 华为 FreeBuds\n买。",
    "short": "1. Bose QC45\n2. Apple AirPods Pro\n就这两款，随便选。",
    "long": "1. A\n2. B\n3. C\n4. D\n有四款可以考虑哦～",
}


def rubric_case(case_id: str = "B3-QC-09") -> str:
    """exactly_3 (rule), friendly (a rubric alone), three_and_friendly (a rule and a rubric in all_of)."""
    return case_yaml(
        ["{id: exactly_3, check: items:count, params: {exact: 3}}",
         f"{{id: friendly, judge: '{RUBRIC}'}}",
         f"{{id: three_and_friendly, all_of: [{{check: items:count, params: {{max: 3}}}}, {{judge: '{RUBRIC}'}}]}}"],
        [ANSWERS["good"]],
        [(ANSWERS["cold"], ["friendly", "three_and_friendly"]), (ANSWERS["short"], ["exactly_3"]),
         (ANSWERS["long"], ["exactly_3", "three_and_friendly"])],
        case_id=case_id, groups="A: {skill_enabled: false}\nB: {skill_enabled: true}",
    )


def write_cases(root: Path) -> Path:
    cases = root / "cases"
    (cases / "b3").mkdir(parents=True)
    (cases / "b3" / "B3-QC-09.yaml").write_text(rubric_case(), encoding="utf-8")
    return cases
