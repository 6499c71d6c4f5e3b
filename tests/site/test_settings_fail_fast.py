import subprocess

import pytest

from tests.support.processes import PYTHON, ROOT, site_env

LOAD_SETTINGS = "import maubinh_site.settings"


def _load(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-c", LOAD_SETTINGS], cwd=ROOT, env=site_env(**env), capture_output=True, text=True
    )


@pytest.mark.parametrize(
    "url",
    ["mysql://u:p@localhost/db", "not a url", "postgres://u:p@localhost:5432/"],
)
def test_a_bad_database_url_stops_start_up_naming_the_variable(url):
    result = _load(DATABASE_URL=url)
    assert result.returncode != 0
    assert "DATABASE_URL" in result.stderr


def test_a_password_in_a_bad_database_url_is_not_printed():
    result = _load(DATABASE_URL="mysql://user:s3cr3tpw@localhost/db")
    assert "s3cr3tpw" not in result.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEBUG", "maybe"),
        ("REDIS_URL", "http://localhost:6379"),
        ("HOUSE_FEE_PERCENT", "150"),
        ("HOUSE_FEE_PERCENT", "lots"),
        ("LANGUAGE_CODE", "fr"),
        ("SECRET_KEY", ""),
    ],
)
def test_a_bad_setting_stops_start_up_naming_the_variable(name, value):
    result = _load(**{name: value})
    assert result.returncode != 0
    assert name in result.stderr


def test_good_settings_load():
    assert _load().returncode == 0


def test_production_settings_pass_the_deploy_check(tmp_path):
    result = subprocess.run(
        [PYTHON, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=site_env(
            DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
            SECURE_SSL_REDIRECT="true",
            SECURE_COOKIES="true",
        ),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
