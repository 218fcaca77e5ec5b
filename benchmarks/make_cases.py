"""Build the matcher corpus by running real libraries with bad inputs and recording the true raise sites.

Run: python benchmarks/make_cases.py --venv /tmp/casesenv
The venv must hold exactly the releases in VENV_REQUIREMENTS (benchmarks/cases/README.md says how).
The script re-runs itself inside that venv (``--worker``), one process per library, and imports nothing
of errdex. Same venv, same inputs -> byte-identical JSON.
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "cases"

# ---------------------------------------------------------------------------------------------------------------------
# What the venv holds. Distribution names are PEP 503 normalised.
# ---------------------------------------------------------------------------------------------------------------------

VENV_REQUIREMENTS = (
    "transformers==5.16.0",
    "packaging==26.4",
    "click==8.5.1",
    "jinja2==3.1.6",
    "requests==2.34.2",
    "urllib3==2.8.0",
    "attrs==26.1.0",
    "sqlalchemy==2.1.9",
    "httpx==0.28.1",
    "botocore==1.44.5",
    "jsonschema==4.26.0",
    "networkx==3.6.1",
    "pyyaml==6.0.3",
    "python-dateutil==2.9.0.post0",
    "rich==15.0.0",
    "polars==2.1.0",
    "pandas==3.1.1",
    "pydantic==2.14.3",
    "marshmallow==4.4.0",
)

# Installed in the venv but deliberately left out of the index: their messages must make the matcher abstain.
NOT_INDEXED = frozenset({"marshmallow", "pydantic-core"})

# Statements that raise with a message written in the package's source.
RAISING_STATEMENTS = frozenset({"Raise", "Assert", "Expr:raise_from", "Expr:reraise"})  # six's helpers too

# Pseudo-package for errors raised by the interpreter or the standard library (no distribution owns them).
PYTHON = "python"


def E(code: str) -> tuple[str, str]:
    """An error case: running ``code`` must raise."""
    return ("error", code)


def W(code: str) -> tuple[str, str]:
    """A warning case: running ``code`` must emit a warning (the first one is recorded)."""
    return ("warning", code)


# ---------------------------------------------------------------------------------------------------------------------
# The cases: library -> (setup code, [cases]). A case's code runs after the setup in a fresh namespace.
# ---------------------------------------------------------------------------------------------------------------------

LIBRARIES: dict[str, tuple[str, list[tuple[str, str]]]] = {}

LIBRARIES["transformers"] = (
    "import transformers\n"
    "from transformers import GenerationConfig, PretrainedConfig, BertConfig, AutoConfig\n"
    "from transformers.generation import WatermarkingConfig\n"
    "from transformers import utils as tutils\n"
    "from transformers.utils import quantization_config as qc\n",
    [
        E("GenerationConfig(cache_implementation='flash')"),
        E("GenerationConfig(cache_implementation='statc')"),
        E("GenerationConfig(max_new_tokens=0)"),
        E("GenerationConfig(max_new_tokens=-5)"),
        E("GenerationConfig(early_stopping='sometimes')"),
        E("GenerationConfig(assistant_ensemble_weight=1.5)"),
        E("GenerationConfig(compile_config={'fullgraph': True})"),
        E("GenerationConfig(num_return_sequences=3)"),
        E("GenerationConfig(num_beams=2, num_return_sequences=4)"),
        E("GenerationConfig(streamer=object())"),
        E("GenerationConfig(temperature=0.3).validate(strict=True)"),
        E(
            "GenerationConfig(num_beams=1, length_penalty=2.0, use_cache=False, "
            "cache_implementation='static').validate(strict=True)"
        ),
        E("GenerationConfig(watermarking_config={'seeding_scheme': 'righthash'})"),
        E("GenerationConfig(watermarking_config={'greenlist_ratio': 1.5})"),
        E("GenerationConfig(watermarking_config={'context_width': 0})"),
        E("GenerationConfig.from_pretrained('/nonexistent/model-dir')"),
        E("qc.BitsAndBytesConfig(load_in_4bit=True, load_in_8bit=True)"),
        E("qc.BitsAndBytesConfig(llm_int8_threshold='high')"),
        E("qc.BitsAndBytesConfig(llm_int8_skip_modules='lm_head')"),
        E("qc.BitsAndBytesConfig(bnb_4bit_quant_type=4)"),
        E("qc.BitsAndBytesConfig(load_in_8bit='yes')"),
        E("qc.GPTQConfig(bits=5, dataset='c4')"),
        E("qc.GPTQConfig(bits=4, group_size=0)"),
        E("qc.GPTQConfig(bits=4, damp_percent=1.5)"),
        E("qc.AwqConfig(format='turbo')"),
        E("qc.HqqConfig(axis=2)"),
        E("qc.QuantoConfig(weights='int3')"),
        E("qc.QuantoConfig(weights='int8', activations='int4')"),
        E("qc.EetqConfig(weights='int4')"),
        E("qc.HiggsConfig(bits=5)"),
        E("qc.HiggsConfig(bits=4, p=3)"),
        E("qc.BitNetQuantConfig(linear_class='dense')"),
        E("qc.BitNetQuantConfig(quantization_mode='hybrid')"),
        E("qc.FineGrainedFP8Config(weight_block_size=(128, 0))"),
        E("qc.FineGrainedFP8Config(scale_fmt='int8')"),
        E("qc.SpQRConfig(bits=4)"),
        E("qc.MetalConfig(bits=3)"),
        E("qc.AqlmConfig(in_group_size='8')"),
        E("qc.SinqConfig(method='fast')"),
        E("BertConfig().save_pretrained(__file__ if False else '/etc/hostname')"),
        E("PretrainedConfig().update_from_string('nonexistent_key=3')"),
        E("BertConfig().update_from_string('is_decoder=maybe')"),
        E("AutoConfig.for_model('no-such-model-type')"),
    ],
)

LIBRARIES["packaging"] = (
    "from packaging.version import Version, parse, InvalidVersion\n"
    "from packaging.specifiers import Specifier, SpecifierSet\n"
    "from packaging.requirements import Requirement\n"
    "from packaging.markers import Marker\n"
    "from packaging.utils import canonicalize_name, parse_wheel_filename, parse_sdist_filename\n"
    "from packaging.tags import parse_tag, Tag\n"
    "from packaging.licenses import canonicalize_license_expression\n"
    "from packaging.metadata import Metadata, parse_email\n"
    "import copy\n",
    [
        E("Version('1.0.x')"),
        E("Version('')"),
        E("Version('1..2')"),
        E("parse('latest')"),
        E("Version(None)"),
        E("Version.from_parts(epoch=-1)"),
        E("Version.from_parts(release=())"),
        E("Version.from_parts(release=(1,), pre=('z', 1))"),
        E("Version.from_parts(release=(1,), post=-2)"),
        E("Version.from_parts(release=(1,), dev='x')"),
        E("Version.from_parts(release=(1,), local='a b')"),
        E("Version('1.0') < '2.0'"),
        E("Specifier('>=1.0,<2')"),
        E("Specifier('=>1.0')"),
        E("SpecifierSet('>=1.0, ~=2')"),
        E("SpecifierSet('>=1', prereleases=True) & SpecifierSet('<2', prereleases=False)"),
        E("SpecifierSet('>=1').is_subset('<2')"),
        E("Requirement('requests >= 2.0 ; python_version >')"),
        E("Requirement('requests[security')"),
        E("Requirement('name @ ')"),
        E("Requirement('foo ==1.0.*.*')"),
        E("Requirement('-foo')"),
        E("Marker('python_version >= \"3.8\" and')"),
        E("Marker('os_name = \"posix\"')"),
        E("Marker('nonsense_var == \"1\"')"),
        E("Marker('python_version < \"3\"').evaluate({'python_version': None})"),
        E("canonicalize_name('not a name!', validate=True)"),
        E("parse_wheel_filename('foo-1.0.tar.gz')"),
        E("parse_wheel_filename('foo-1.0-py3-none.whl')"),
        E("parse_wheel_filename('foo__bar-1.0-py3-none-any.whl')"),
        E("parse_wheel_filename('foo-1.0.x-py3-none-any.whl')"),
        E("parse_wheel_filename('foo-1.0-abc-py3-none-any.whl')"),
        E("parse_wheel_filename('foo-1.0-py3-none-any..x.whl')"),
        E("parse_sdist_filename('foo.tar.gz')"),
        E("parse_sdist_filename('foo-bar.tar.gz')"),
        E("parse_tag('py3-none')"),
        E("parse_tag('py3..py2-none-any')"),
        E("parse_tag('py3.py2-none-any', validate_order=True)"),
        E("parse_tag('py2.py3-none-any', limit=-1)"),
        E("parse_tag('py2.py3-cp3.none-linux.win', limit=3)"),
        E("parse_tag('3py-none-any')"),
        E("canonicalize_license_expression('MIT AND')"),
        E("canonicalize_license_expression('Apache-2.0 WITH Nonsense-exception')"),
        E("canonicalize_license_expression('Not-A-License-1.0')"),
        E("canonicalize_license_expression('LicenseRef-caf\u00e9')"),
        E("Metadata.from_raw({'metadata_version': '9.9', 'name': 'x', 'version': '1.0'})"),
        E("Metadata.from_raw({'metadata_version': '2.1', 'version': '1.0'})"),
        E("Metadata.from_raw({'metadata_version': '2.1', 'name': 'x', 'version': '1.x'}).version"),
        E("Metadata.from_email('Metadata-Version: 2.1\\nName: x\\nVersion: 1.0\\nDynamic: Name\\n')"),
        E(
            "Metadata.from_raw({'metadata_version': '2.1', 'name': 'x', 'version': '1.0', "
            "'requires_dist': ['bad req ==']}, validate=False).requires_dist"
        ),
        E("copy.copy(Version('1.0')).__setstate__(42)"),
    ],
)

CLICK_SETUP = """\
import click

@click.group()
def cli():
    pass

@cli.command()
@click.option('--count', type=int, required=True)
@click.option('--ratio', type=float, default=1.0)
@click.option('--mode', type=click.Choice(['fast', 'slow']), default='fast')
@click.option('--level', type=click.IntRange(1, 5), default=1)
@click.option('--frac', type=click.FloatRange(0, 1, max_open=True), default=0.5)
@click.option('--flag/--no-flag', default=False)
@click.option('--enabled', type=bool, default=True)
@click.option('--uid', type=click.UUID, default=None)
@click.option('--when', type=click.DateTime(['%Y-%m-%d']), default=None)
@click.option('--src', type=click.Path(exists=True), default=None)
@click.option('--infile', type=click.File('r'), default=None)
@click.option('--point', type=(int, int), default=None)
@click.option('--size', nargs=2, type=int, default=None)
@click.argument('names', nargs=-1)
def run(**kwargs):
    pass

@cli.command()
@click.argument('target')
@click.argument('dest', type=click.Path(file_okay=False), required=False)
def copy(target, dest):
    pass

def main(*args):
    return cli.main(list(args), prog_name='tool', standalone_mode=False)
"""

LIBRARIES["click"] = (
    CLICK_SETUP,
    [
        E("main('run')"),
        E("main('run', '--count', 'x')"),
        E("main('run', '--count', '1', '--ratio', 'half')"),
        E("main('run', '--count', '1', '--mode', 'medium')"),
        E("main('run', '--count', '1', '--level', '9')"),
        E("main('run', '--count', '1', '--frac', '1')"),
        E("main('run', '--count', '1', '--enabled', 'maybe')"),
        E("main('run', '--count', '1', '--uid', 'not-a-uuid')"),
        E("main('run', '--count', '1', '--when', '31/12/2024')"),
        E("main('run', '--count', '1', '--src', '/nonexistent/path.txt')"),
        E("main('run', '--count', '1', '--infile', '/nonexistent/in.txt')"),
        E("main('run', '--count', '1', '--point', '1')"),
        E("main('run', '--count', '1', '--point', '1', 'b')"),
        E("main('run', '--count', '1', '--colour', 'red')"),
        E("main('run', '--count', '1', '--cont')"),
        E("main('run', '--count')"),
        E("main('run', '--count', '1', '--flag=yes')"),
        E("main('deploy')"),
        E("main('copyy', 'a')"),
        E("main('copy')"),
        E("main('copy', 'a', 'b', 'c', 'd')"),
        E("main('copy', 'a', '/etc/hostname')"),
        E("main()"),
        E("click.Option(['--x'], nargs=-1)"),
        E("click.Option(['--x/--y'], type=int)"),
        E("click.Option(['--x'], count=True, multiple=True)"),
        E("click.Option(['--x'], count=True, is_flag=True)"),
        E("click.Option(['--x/--x'])"),
        E("click.Option(['x'])"),
        E("click.Option(['--a', '--a'], required=True, deprecated=True)"),
        E("click.Option(['-', '--'])"),
        E("click.Argument(['x'], multiple=True)"),
        E("click.Argument(['a', 'b'])"),
        E("click.style('hi', fg='chartreuse')"),
        E("click.get_text_stream('stdweird')"),
        E("click.get_binary_stream('stdweird')"),
        E("click.Context(cli).fail('custom failure text')"),
        E("click.Context(cli).abort()"),
        E("click.Context(cli).exit(3)"),
        E("click.Choice(['a', 'b']).convert('c', None, None)"),
        E("click.Path(exists=True, dir_okay=False).convert('/etc', None, None)"),
        E("click.Path(exists=True, file_okay=False).convert('/etc/hostname', None, None)"),
        E("click.INT.convert(None, None, None)"),
        E("click.progressbar()"),
        E("click.progressbar(range(3)).__iter__().__next__()"),
        E("click.command()(click.command()(lambda: None))"),
        E(
            "click.version_option()(click.command(name='noversion')(lambda: None)).main(['--version'], standalone_mode=False)"
        ),
        W("click.BaseCommand"),
        W("click.parser.OptionParser"),
        W("click.utils.LazyFile"),
        W("click.Context(cli).protected_args"),
        W(
            "cmd = click.command()(click.option('--n')(click.option('--n')(lambda n: None)))\n"
            "cmd.main([], standalone_mode=False)"
        ),
        W(
            "cmd = click.command()(click.argument('n')(click.option('--n', 'n')(lambda n: None)))\n"
            "cmd.main(['1'], standalone_mode=False)"
        ),
    ],
)

LIBRARIES["jinja2"] = (
    "import jinja2\n"
    "from jinja2 import Environment, Template, StrictUndefined, DictLoader, sandbox\n"
    "env = Environment(loader=DictLoader({'base.html': '{% block body %}{% endblock %}'}))\n"
    "strict = Environment(undefined=StrictUndefined)\n",
    [
        E("Template('{% if x %}yes')"),
        E("Template('{% for x in y %}{{ x }}')"),
        E("Template('{{ x }')"),
        E("Template('{% endif %}')"),
        E("Template('{% frobnicate %}')"),
        E("Template('{{ x | nosuchfilter }}')"),
        E("Template('{% block a %}{% endblock %}{% block a %}{% endblock %}')"),
        E("Template('{% for %}{% endfor %}')"),
        E("Template('{{ 1 + }}')"),
        E("Template('{% set %}')"),
        E("Template('{% macro m(a=1, b) %}{% endmacro %}')"),
        E("Template('{% extends %}')"),
        E("Template('{{ x.1a }}')"),
        E("Template('{% raw %}unterminated')"),
        E("Template('{# unterminated comment')"),
        E("Template('{{ \"abc }}')"),
        E("Template('{% include %}')"),
        E("Template('{% with 1 = x %}{% endwith %}')"),
        E("Template('{% call foo( %}')"),
        E("strict.from_string('{{ user.name }}').render()"),
        E("strict.from_string('{{ missing }}').render()"),
        E("strict.from_string('{{ user.name }}').render(user={})"),
        E("Template('{{ x.y.z }}').render()"),
        E("Template('{{ x | attr }}').render(x=1)"),
        E("Template('{{ none + 1 }}').render()"),
        E("Template('{{ x | join(1) }}').render(x=3)"),
        E(
            "Template('{{ range(10**6) | list | length }}').render() and sandbox.SandboxedEnvironment()"
            ".from_string('{{ range(10**7) }}').render()"
        ),
        E("env.get_template('missing.html')"),
        E("env.select_template(['a.html', 'b.html'])"),
        E("env.select_template([])"),
        E("env.from_string('{% extends \"nope.html\" %}').render()"),
        E("env.from_string('{% include \"nope.html\" %}').render()"),
        E("Environment().get_template('x.html')"),
        E("Environment(block_start_string='{{', variable_start_string='{{')"),
        E("Environment(extensions=['jinja2.ext.nosuch'])"),
        E("Template('{% trans %}hi{% endtrans %}')"),
        E(
            "Environment(extensions=['jinja2.ext.i18n']).from_string('{% trans %}{% for x in y %}{% endfor %}{% endtrans %}')"
        ),
        E("Environment(extensions=['jinja2.ext.i18n']).from_string('{% trans a, a %}{% endtrans %}')"),
        E("Environment(extensions=['jinja2.ext.loopcontrols']).from_string('{% break %}')"),
        E("Template('{{ super() }}{% block a %}{% endblock %}').render()"),
        E("Template('{{ x | sum(attribute=1) }}').render(x=[1])"),
        E("Template('{{ x | dictsort(by=\"color\") }}').render(x={'a': 1})"),
        E('Template(\'{{ "%d" | format("a") }}\').render()'),
        E("Template('{{ loop.cycle() }}{% for x in [1] %}{{ loop.cycle() }}{% endfor %}').render()"),
        E("Template('{% for x in [1] %}{{ loop.cycle() }}{% endfor %}').render()"),
        E("jinja2.ChoiceLoader([]).load(Environment(), 'x')"),
        E("jinja2.FileSystemLoader('/nonexistent').get_source(Environment(), '../etc/passwd')"),
        E("Template('{{ x|min(attribute=\"a\") }}').render(x=[{}, {}]) and StrictUndefined()"),
    ],
)

LIBRARIES["requests"] = (
    "import requests\nfrom requests import Session, Request\nfrom requests.models import PreparedRequest\n",
    [
        E("requests.get('example.com/path')"),
        E("requests.get('')"),
        E("requests.get('http://')"),
        E("requests.get('http://exa mple.com:port/')"),
        E("requests.get('ftp2://example.com')"),
        E("requests.get('http://example.com:99999999/')"),
        E("requests.get('http://[::1')"),
        E("requests.get('http://.example.com/')"),
        E("requests.get('http://' + 'a' * 70 + '.com/')"),
        E("requests.get('http://example.com', timeout=(1, 2, 3))"),
        E("requests.get('http://example.com', timeout='5')"),
        E(
            "requests.post('http://example.com', files={'f': 123}, data=[(1, 2)], json=None, stream=None, verify='/nonexistent/ca.pem')"
        ),
        E("requests.get('https://example.com', verify='/nonexistent/ca.pem')"),
        E("requests.get('https://example.com', cert='/nonexistent/cert.pem')"),
        E("requests.get('https://example.com', cert=('/nonexistent/cert.pem', '/nonexistent/key.pem'))"),
        E("requests.request('GET', 'http://example.com', params=object())"),
        E("requests.post('http://example.com', data=b'x', files={'f': 'x'})"),
        E("requests.post('http://example.com', data='raw', files={'f': ('a', b'1')})"),
        E("PreparedRequest().prepare(method='GET', url='http://example.com', headers={'X-Bad': 'a\\nb'})"),
        E("PreparedRequest().prepare(method='GET', url='http://example.com', headers={'X-Num': 5})"),
        E("PreparedRequest().prepare(method='GET', url='http://example.com', headers={' Lead': 'x'})"),
        E("requests.Response().raise_for_status() or requests.Response().json()"),
        E(
            "r = requests.Response(); r.status_code = 404; r.reason = 'Not Found'; r.url = 'http://example.com/x'\n"
            "r.raise_for_status()"
        ),
        E(
            "r = requests.Response(); r.status_code = 503; r.reason = 'Service Unavailable'; "
            "r.url = 'http://example.com/y'\nr.raise_for_status()"
        ),
        E("r = requests.Response(); r._content = b'<html>'; r.encoding = 'utf-8'\nr.json()"),
        E("requests.Session().get_adapter('gopher://example.com')"),
        E(
            "requests.auth.HTTPDigestAuth('u', 'p').build_digest_header('GET', 'http://x') or "
            "requests.utils.get_auth_from_url(1)"
        ),
        E("requests.utils.from_key_val_list(1)"),
        E("requests.utils.check_header_validity(('X', 'a\\rb'))"),
        E("requests.utils.unquote_unreserved('%zz')"),
        E("requests.cookies.RequestsCookieJar()['missing']"),
        E("requests.cookies.create_cookie('a', '1', nonsense=True)"),
    ],
)

LIBRARIES["urllib3"] = (
    "import urllib3\nfrom urllib3.util import parse_url, Timeout, Retry\nfrom urllib3.util.url import Url\n",
    [
        E("parse_url('http://exa mple.com:port/')"),
        E("parse_url('http://example.com:99999999')"),
        E("parse_url('http://[::1')"),
        E("urllib3.PoolManager().connection_from_url('ftp://example.com')"),
        E("urllib3.HTTPConnectionPool('example.com').urlopen('GET', 'http://other.example/x', assert_same_host=True)"),
        E("Timeout(connect=-1)"),
        E("Timeout(read='5')"),
        E("Timeout(total=True)"),
        E("Retry(total=0).increment(method='GET', url='/x')"),
        E(
            "Retry(total=1, status_forcelist=[500]).increment(method='GET', url='/x', "
            "response=urllib3.HTTPResponse(status=500)).increment(method='GET', url='/x', "
            "response=urllib3.HTTPResponse(status=500))"
        ),
        E("Retry(backoff_max=-1, allowed_methods={'GET'}, method_whitelist={'GET'})"),
        E("urllib3.util.make_headers(proxy_basic_auth=1)"),
        E("urllib3.HTTPResponse(body=b'{', headers={'content-type': 'application/json'}).json()"),
        E("urllib3.ProxyManager('example.com:3128')"),
        E("urllib3.ProxyManager('socks5://example.com:1080')"),
        E("urllib3.util.ssl_.resolve_cert_reqs('CERT_SOMETIMES')"),
        E("urllib3.util.ssl_.resolve_ssl_version('PROTOCOL_NOPE')"),
        E("urllib3.util.ssl_.create_urllib3_context(ssl_minimum_version=1, ssl_version=2)"),
        E("urllib3.util.ssl_.assert_fingerprint(b'abc', 'zz:11')"),
        E("urllib3.util.ssl_.assert_fingerprint(b'abc', 'aa' * 20)"),
        E(
            "urllib3.fields.RequestField('f', 'x').make_multipart(content_disposition='bad\\nheader') or "
            "urllib3.encode_multipart_formdata({'a': object()})"
        ),
        E("urllib3.HTTPHeaderDict({'a': '1'})['b']"),
        E("urllib3.HTTPHeaderDict().extend(1, 2)"),
        E(
            "p = urllib3.HTTPConnectionPool('example.com', maxsize=1, block=True)\np._get_conn()\np._get_conn(timeout=0.01)"
        ),
        E("p = urllib3.HTTPConnectionPool('example.com')\np.close()\np._get_conn()"),
        E("urllib3.request('GET', 'http://example.com', json={'a': 1}, body=b'x')"),
    ],
)

LIBRARIES["httpx"] = (
    "import httpx\n",
    [
        E("httpx.URL('http://[::1/')"),
        E("httpx.URL('http://example.com/\\x00')"),
        E("httpx.URL(123)"),
        E("httpx.URL('http://example.com', nope=1)"),
        E("httpx.URL('http://example.com', port='80')"),
        E("httpx.URL('http://example.com').copy_with(scheme=1)"),
        E("httpx.get('example.com/path')"),
        E("httpx.get('ftp://example.com/')"),
        E("httpx.get('http:///path')"),
        E("httpx.Timeout(connect=5)"),
        E("httpx.Limits(max_connections='x') and httpx.Client(limits=1)"),
        E("httpx.Headers({'a': 1})"),
        E(
            "httpx.Headers({'X-Bad': 'a\\nb'}).raw and httpx.Request('GET', 'http://example.com', headers={'x': 'caf\u00e9'})"
        ),
        E("httpx.Request('GET', 'http://example.com', content=123)"),
        E("httpx.Request('GET', 'http://example.com', content=iter([b'x'])).content"),
        E("httpx.Response(200).raise_for_status()"),
        E("httpx.Response(404, request=httpx.Request('GET', 'http://example.com/missing')).raise_for_status()"),
        E("httpx.Response(500, request=httpx.Request('GET', 'http://example.com/boom')).raise_for_status()"),
        E("httpx.Response(302, request=httpx.Request('GET', 'http://example.com/r')).raise_for_status()"),
        E("httpx.Response(200, content=b'{').json()"),
        E("httpx.Response(200).request"),
        E("httpx.Response(200).elapsed"),
        E("httpx.Response(200, content=iter([b'x'])).content"),
        E("httpx.QueryParams(object())"),
        E(
            "httpx.Cookies().set('a', '1', domain='x.com') or (lambda c: (c.set('a', '1', domain='x.com'), "
            "c.set('a', '2', domain='y.com'), c['a']))(httpx.Cookies())"
        ),
        E("httpx.Cookies()['missing']"),
        E("httpx.Client(proxy='nope://proxy:1')"),
        E("httpx.Client(proxy='http://proxy:1', mounts={'http://': 1}).get('http://example.com')"),
        E("httpx.Client().close() or (lambda c: (c.close(), c.get('http://example.com')))(httpx.Client())"),
        E("httpx.Client(app=1)"),
        E("httpx.Client(auth=1)"),
        E("httpx.BasicAuth(1, 2).auth_flow(httpx.Request('GET', 'http://x')).__next__()"),
    ],
)

ATTRS_SETUP = """\
import re
import attr, attrs
from attrs import define, field, frozen, validators as v, converters, setters

@define
class Point:
    x: int = field(validator=v.instance_of(int))
    y: int = field(default=0, validator=[v.ge(0), v.lt(100)])

@define
class Opts:
    mode: str = field(default='a', validator=v.in_(['a', 'b']))
    name: str = field(default='ok', validator=v.matches_re(r'[a-z]+'))
    tags: list = field(factory=list, validator=v.deep_iterable(v.instance_of(str), v.instance_of(list)))
    meta: dict = field(factory=dict, validator=v.deep_mapping(v.instance_of(str), v.instance_of(int)))
    short: str = field(default='', validator=v.max_len(3))
    longer: str = field(default='xx', validator=v.min_len(2))
    maybe: object = field(default=None, validator=v.optional(v.instance_of(int)))
    cb: object = field(default=print, validator=v.is_callable())
    either: object = field(default=1, validator=v.or_(v.instance_of(int), v.instance_of(float)))
    neg: int = field(default=-1, validator=v.not_(v.ge(0)))
    lo: int = field(default=5, validator=v.gt(0))
    hi: int = field(default=5, validator=v.le(10))
    sub: type = field(default=int, validator=v.is_callable())

@frozen
class Frozen:
    a: int = 1

@define
class OnSet:
    a: int = field(default=1, on_setattr=setters.frozen)
"""

LIBRARIES["attrs"] = (
    ATTRS_SETUP,
    [
        E("Point('1')"),
        E("Point(1, -3)"),
        E("Point(1, 100)"),
        E("Opts(mode='c')"),
        E("Opts(name='ABC')"),
        E("Opts(tags=['a', 2])"),
        E("Opts(tags=('a',))"),
        E("Opts(meta={'a': 'one'})"),
        E("Opts(meta={1: 1})"),
        E("Opts(short='toolong')"),
        E("Opts(longer='x')"),
        E("Opts(maybe='1')"),
        E("Opts(cb=3)"),
        E("Opts(either='1')"),
        E("Opts(neg=3)"),
        E("Opts(lo=0)"),
        E("Opts(hi=11)"),
        E("Frozen().a = 2"),
        E("del Frozen().a"),
        E("OnSet().a = 2"),
        E("attrs.fields(int)"),
        E("attrs.fields(Point())"),
        E("attrs.fields_dict(dict)"),
        E("attrs.evolve(Point(1), z=3)"),
        E("attrs.asdict(object())"),
        E("attrs.make_class('C', {'a': attrs.field(default=1), 'b': attrs.field()})"),
        E("attrs.make_class('C', ['a'], bases=(int,), slots=True, weakref_slot=True, cache_hash=True, hash=False)"),
        E("attrs.make_class('C', ['a'], frozen=True, on_setattr=setters.validate)"),
        E("attrs.field(default=1, factory=list)"),
        E("attrs.validators.instance_of(int)(None, attrs.fields(Point).x, 'oops')"),
        E("attrs.validators.matches_re('a', func=len)"),
        E("attrs.validators.matches_re(re.compile('a'), flags=re.I)"),
        E("converters.to_bool('perhaps')"),
        E("converters.pipe(int, str)('x')"),
        E("attrs.make_class('C', {'a': attrs.field(kw_only=True, default=1)}, kw_only=False)(1)"),
        E("attrs.define(slots=True, weakref_slot=False, auto_detect=True, order=True, eq=False)(type('C', (), {}))"),
        E("attrs.define(cache_hash=True, unsafe_hash=False)(type('C', (), {}))"),
        E("attrs.setters.pipe(setters.validate, setters.frozen)(Point(1), attrs.fields(Point).x, 2)"),
    ],
)

SQLALCHEMY_SETUP = """\
import sqlalchemy as sa
from sqlalchemy import (create_engine, Column, Integer, String, MetaData, Table, select, text, ForeignKey,
                        inspect, func)
from sqlalchemy.orm import DeclarativeBase, Session, relationship, mapped_column, Mapped, sessionmaker

engine = create_engine('sqlite://')
md = MetaData()
users = Table('users', md, Column('id', Integer, primary_key=True), Column('name', String(20)))
md.create_all(engine)

class Base(DeclarativeBase):
    pass

class User(Base):
    __tablename__ = 'orm_users'
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(30))

Base.metadata.create_all(engine)
"""

LIBRARIES["sqlalchemy"] = (
    SQLALCHEMY_SETUP,
    [
        E("create_engine('nope://')"),
        E("create_engine('not a url')"),
        E("create_engine('postgresql+nosuchdriver://u@h/db')"),
        E("create_engine('sqlite://', not_an_argument=1)"),
        E("sa.engine.make_url('mysql://user@host:notaport/db').port"),
        E("sa.engine.make_url(5)"),
        E("Column('x', Integer, primary_key=True, nonsense=1)"),
        E("Table('users', md, Column('id', Integer))"),
        E("Table('t2', md, Column('a', Integer), Column('a', Integer))"),
        E("users.c.nope"),
        E("select(users).where(users.c.name == 'x').order_by('nope').compile(engine)"),
        E("select(1).subquery().c.nope"),
        E("select('not a column')"),
        E("users.insert().values(nope=1).compile()"),
        E("users.update().values({'nope': 1}).compile()"),
        E("with engine.connect() as c:\n    c.execute('SELECT 1')"),
        E("with engine.connect() as c:\n    c.execute(text('SELECT * FROM missing_table'))"),
        E("with engine.connect() as c:\n    c.execute(text('SELEC 1'))"),
        E("with engine.connect() as c:\n    c.execute(text('SELECT :a'))"),
        E(
            "with engine.connect() as c:\n    c.execute(text('SELECT 1')).scalar_one() and "
            "c.execute(text('SELECT 1 WHERE 0')).scalar_one()"
        ),
        E("with engine.connect() as c:\n    c.execute(text('SELECT 1 UNION SELECT 2')).one()"),
        E("with engine.connect() as c:\n    c.execute(users.insert(), [{'id': 1}, {'id': 1}])"),
        E("with engine.connect() as c:\n    r = c.execute(text('SELECT 1 AS a'))\n    r.mappings().one()['b']"),
        E("with engine.connect() as c:\n    r = c.execute(text('SELECT 1 AS a'))\n    r.one().b"),
        E("c = engine.connect()\nc.close()\nc.execute(text('SELECT 1'))"),
        E("with Session(engine) as s:\n    s.get(User, 1, nonsense=True)"),
        E("with Session(engine) as s:\n    s.execute(select(User).where(User.id == 1)).scalar_one()"),
        E("with Session(engine) as s:\n    s.add(object())"),
        E(
            "with Session(engine) as s:\n    s.add(User(id=1, name='a'))\n    s.add(User(id=1, name='b'))\n    s.flush()"
        ),
        E("User(nonexistent='x')"),
        E("User.nope"),
        E("inspect(42)"),
        E("inspect(engine).get_columns('missing_table')"),
        E("class Bad(Base):\n    __tablename__ = 'bad'\n    name: Mapped[str] = mapped_column(String)"),
        E("class NoTable(Base):\n    id: Mapped[int] = mapped_column(primary_key=True)"),
        E("class Dup(Base):\n    __tablename__ = 'orm_users'\n    id: Mapped[int] = mapped_column(primary_key=True)"),
        E(
            "class A(Base):\n    __tablename__ = 'a_tbl'\n    id: Mapped[int] = mapped_column(primary_key=True)\n"
            "    bs = relationship('Missing')\nsa.orm.configure_mappers()"
        ),
        E(
            "class P(Base):\n    __tablename__ = 'p_tbl'\n    id: Mapped[int] = mapped_column(primary_key=True)\n"
            "    kids = relationship('Kid')\n"
            "class Kid(Base):\n    __tablename__ = 'kid_tbl'\n    id: Mapped[int] = mapped_column(primary_key=True)\n"
            "sa.orm.configure_mappers()"
        ),
        E("sa.Enum('a', 'b', validate_strings=True).bind_processor(sa.create_engine('sqlite://').dialect)('c')"),
        E(
            "sa.Numeric(10, 2).result_processor(engine.dialect, None) and sa.Interval().bind_processor(engine.dialect)('x')"
        ),
        E("func.count(users.c.id).over(order_by='x', rows=(1, 'a'))"),
        E("select(users).limit('ten')"),
        E("sa.literal_column('x').label(None).compile(dialect=None) and text('SELECT :x').bindparams(y=1)"),
        E("sa.column('x').in_(5)"),
        E("ForeignKey('users.id').column"),
        E(
            "md2 = MetaData()\nt = Table('t', md2, Column('x', Integer, ForeignKey('nowhere.id')))\nt.c.x.references(users) or "
            "list(t.foreign_keys)[0].column"
        ),
        W(
            "sa.Table('warn_tbl', MetaData(), Column('a', Integer), Column('b', Integer, default=1, server_default='2'))"
            ".c.a.copy()"
        ),
        W("select(users.c.id).where(users.c.id.in_(select(users.c.id).subquery()))"),
    ],
)

LIBRARIES["botocore"] = (
    "import botocore.session\n"
    "from botocore.config import Config\n"
    "from botocore.stub import Stubber\n"
    "session = botocore.session.get_session()\n"
    "session.set_credentials('AKIDEXAMPLE', 'secret')\n"
    "s3 = session.create_client('s3', region_name='us-east-1')\n"
    "ddb = session.create_client('dynamodb', region_name='us-east-1')\n"
    "sqs = session.create_client('sqs', region_name='us-east-1')\n"
    "ec2 = session.create_client('ec2', region_name='us-east-1')\n"
    "def stubbed():\n"
    "    client = session.create_client('s3', region_name='us-east-1')\n"
    "    return client, Stubber(client)\n",
    [
        E("s3.get_object(Bucket='b')"),
        E("s3.get_object(Bucket='b', Key=5)"),
        E("s3.put_object(Bucket='b', Key='k', Body=3.5)"),
        E("s3.list_objects_v2(Bucket='b', MaxKeys='ten')"),
        E("s3.get_object(Bucket='b', Key='k', Nonsense=1)"),
        E("s3.get_object(Bucket='bad bucket name!', Key='k')"),
        E("s3.get_object(Bucket='arn:aws:s3:::nope', Key='k')"),
        E("s3.head_object(Bucket='', Key='k')"),
        E("ddb.put_item(TableName='t', Item={'a': {'Q': '1'}})"),
        E("ddb.put_item(TableName='t', Item=['a'])"),
        E("ec2.describe_instances(MaxResults=1.5)"),
        E("ec2.run_instances(ImageId='ami-1', MinCount=1)"),
        E("session.create_client('nosuchservice', region_name='us-east-1')"),
        E("session.create_client('s3', region_name='us east 1')"),
        E("session.create_client('s3', region_name='us-east-1', endpoint_url='not a url')"),
        E("session.create_client('sqs')"),
        E("session.create_client('s3', region_name='us-east-1', config=Config(retries={'mode': 'yolo'}))"),
        E("session.create_client('s3', region_name='us-east-1', config=Config(retries={'max_attempts': 'x'}))"),
        E("session.create_client('s3', region_name='us-east-1', config=Config(s3={'addressing_style': 'sideways'}))"),
        E("Config(nonsense=1)"),
        E("Config(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26)"),
        E(
            "Config(connect_timeout=1, proxies_config={'proxy_use_forwarding_for_https': 1}, retries={'total_max_attempts': 0})"
        ),
        E("s3.get_paginator('get_object')"),
        E("s3.get_waiter('bucket_vanished')"),
        E("s3.generate_presigned_url('no_such_method', Params={})"),
        E("s3.nonexistent_operation()"),
        E(
            "session.get_config_variable('region') or session.get_scoped_config() and session.set_config_variable('x', 1) or "
            "botocore.session.Session(profile='missing-profile').get_scoped_config()"
        ),
        E("client, stub = stubbed()\nstub.activate()\nclient.list_buckets()"),
        E("client, stub = stubbed()\nstub.add_response('list_buckets', {'Buckets': 'nope'})"),
        E(
            "client, stub = stubbed()\nstub.add_response('list_buckets', {})\nstub.activate()\n"
            "client.head_bucket(Bucket='b')"
        ),
        E(
            "client, stub = stubbed()\nstub.add_response('head_bucket', {}, expected_params={'Bucket': 'a'})\n"
            "stub.activate()\nclient.head_bucket(Bucket='b')"
        ),
        E(
            "client, stub = stubbed()\nstub.add_client_error('list_buckets', 'NoSuchThing', 'It is gone', 404)\n"
            "stub.activate()\nclient.list_buckets()"
        ),
        E("client, stub = stubbed()\nstub.add_response('nope_op', {})"),
        E("client, stub = stubbed()\nstub.add_response('list_buckets', {})\nstub.assert_no_pending_responses()"),
        E("botocore.utils.parse_timestamp('not-a-time')"),
        E("botocore.utils.validate_jmespath_for_set('a.b[0]')"),
        E("botocore.utils.ArnParser().parse_arn('arn:aws:s3')"),
        E("botocore.utils.check_dns_name('x') or botocore.utils.validate_region_name('bad region!')"),
        E("botocore.utils.percent_encode_sequence(5)"),
        E(
            "botocore.utils.is_valid_endpoint_url('x') or botocore.endpoint_provider.RuleSetStandardLibary({}).parse_url(1)"
        ),
    ],
)

LIBRARIES["jsonschema"] = (
    "import jsonschema\nfrom jsonschema import validate, Draft202012Validator, Draft7Validator, FormatChecker\n"
    "schema = {'type': 'object', 'properties': {'age': {'type': 'integer', 'minimum': 0}, "
    "'name': {'type': 'string', 'minLength': 2, 'maxLength': 5, 'pattern': '^[a-z]+$'}, "
    "'tags': {'type': 'array', 'items': {'type': 'string'}, 'minItems': 1, 'maxItems': 2, 'uniqueItems': True}, "
    "'kind': {'enum': ['a', 'b']}, 'const': {'const': 3}, 'ratio': {'type': 'number', 'exclusiveMaximum': 1, 'multipleOf': 0.25}, "
    "'email': {'type': 'string', 'format': 'email'}}, 'required': ['age'], 'additionalProperties': False}\n",
    [
        E("validate({}, schema)"),
        E("validate({'age': 'ten'}, schema)"),
        E("validate({'age': -1}, schema)"),
        E("validate({'age': 1, 'name': 'a'}, schema)"),
        E("validate({'age': 1, 'name': 'ABC'}, schema)"),
        E("validate({'age': 1, 'tags': []}, schema)"),
        E("validate({'age': 1, 'tags': ['a', 'a']}, schema)"),
        E("validate({'age': 1, 'kind': 'c'}, schema)"),
        E("validate({'age': 1, 'const': 4}, schema)"),
        E("validate({'age': 1, 'ratio': 0.3}, schema)"),
        E("validate({'age': 1, 'extra': True, 'more': 1}, schema)"),
        E("validate({'age': 1, 'email': 'nope'}, schema, format_checker=FormatChecker())"),
        E("validate(5, {'type': 'nonsense'})"),
        E("validate(5, {'minimum': 'zero'})"),
        E("validate({'a': 1}, {'$ref': '#/definitions/missing'})"),
        E("validate({'a': 1}, {'$ref': 'http://example.invalid/schema.json'})"),
        E("validate([1], {'prefixItems': [{'type': 'string'}], 'items': False})"),
        E("validate({'a': 1}, {'dependentRequired': {'a': ['b']}})"),
        E("validate({'a': 1}, {'propertyNames': {'maxLength': 0}})"),
        E("validate({'a': 1, 'b': 2}, {'maxProperties': 1})"),
        E("validate(3, {'not': {'type': 'integer'}})"),
        E("validate(3, {'anyOf': [{'type': 'string'}, {'type': 'null'}]})"),
        E("validate(3, {'oneOf': [{'type': 'integer'}, {'minimum': 0}]})"),
        E("validate([1, 2], {'contains': {'type': 'string'}})"),
        E("validate([1], {'unevaluatedItems': False})"),
        E("validate(1.5, {'type': 'integer'}, cls=Draft7Validator)"),
        E("Draft202012Validator.check_schema({'type': 12})"),
        E("Draft202012Validator({'type': 'string'}).validate(1)"),
        E("jsonschema.validators.validator_for({'$schema': 'http://example.com/unknown'}, default=None)(0)"),
        E("FormatChecker().check('nope', 'ipv4')"),
        E("jsonschema.exceptions.best_match([]).message"),
        E("Draft202012Validator({}).evolve(schema=None).is_type(1, 'nonsense')"),
    ],
)

LIBRARIES["networkx"] = (
    "import networkx as nx\n"
    "G = nx.path_graph(4)\n"
    "D = nx.DiGraph([(0, 1), (1, 2), (2, 0)])\n"
    "W = nx.Graph()\nW.add_edge('a', 'b', weight=-1)\nW.add_edge('b', 'c', weight=2)\n"
    "H = nx.Graph([(0, 1), (2, 3)])\n",
    [
        E("nx.shortest_path(G, 0, 99)"),
        E("nx.shortest_path(G, 99, 0)"),
        E("nx.shortest_path(H, 0, 3)"),
        E("nx.shortest_path(G, 0, 3, method='magic')"),
        E("nx.dijkstra_path(H, 0, 3)"),
        E("nx.bellman_ford_path(nx.DiGraph([(0, 1, {'weight': -1}), (1, 0, {'weight': -1})]), 0, 1)"),
        E("nx.topological_sort(D) and list(nx.topological_sort(D))"),
        E("nx.find_cycle(nx.path_graph(3))"),
        E("G.remove_node(42)"),
        E("G.remove_edge(0, 3)"),
        E("G.add_edge(None, 1)"),
        E("G.add_node(None)"),
        E("G.add_edges_from([(1, 2, 3, 4)])"),
        E("G.add_edges_from([(1,)])"),
        E("G.neighbors(42)"),
        E("G.edges[0, 3]"),
        E("G.nodes[42]"),
        E("G.degree(42) if False else nx.Graph().adj[5]"),
        E("nx.diameter(H)"),
        E("nx.eccentricity(nx.DiGraph([(0, 1)]))"),
        E("nx.eulerian_circuit(G).__next__()"),
        E("nx.is_connected(nx.Graph())"),
        E("nx.connected_components(D).__next__()"),
        E("nx.strongly_connected_components(G).__next__()"),
        E("nx.minimum_spanning_tree(D)"),
        E("nx.minimum_spanning_tree(G, algorithm='fancy')"),
        E("nx.relabel_nodes(G, {0: 1}, copy=False) and nx.convert_node_labels_to_integers(G, ordering='sideways')"),
        E("nx.complete_graph(-1) and nx.path_graph('x')"),
        E("nx.random_regular_graph(3, 5, seed=1)"),
        E("nx.gnm_random_graph(3, 10, seed='abc')"),
        E("nx.barabasi_albert_graph(3, 5, seed=1)"),
        E("nx.watts_strogatz_graph(5, 6, 0.1, seed=1)"),
        E("nx.bipartite.sets(nx.path_graph(3).__class__(nx.complete_graph(3)))"),
        E("nx.bipartite.sets(nx.Graph([(0, 1), (2, 3)]))"),
        E("nx.hits(nx.DiGraph())"),
        E("nx.to_numpy_array(G, nodelist=[0, 0])"),
        E("nx.to_numpy_array(G, nodelist=[0, 99])"),
        E("nx.from_dict_of_lists({0: 5})"),
        E("nx.Graph(5)"),
        E("nx.DiGraph(G).to_undirected().successors(0)"),
        E("nx.ancestors(G, 99)"),
        E("nx.descendants(D, 99)"),
        E("nx.dag_longest_path(D)"),
        E("nx.max_weight_matching(G, maxcardinality='x') and nx.maximal_matching(D)"),
        E("nx.has_path(G, 0, 99)"),
        E("nx.astar_path(G, 0, 99)"),
        E("nx.single_source_shortest_path_length(G, 99)"),
        E("nx.node_connectivity(G, 0)"),
        E("nx.algorithms.isomorphism.GraphMatcher(G, D)"),
        E("nx.union(G, G)"),
        E("nx.compose(G, D)"),
        E("nx.write_graphml(nx.Graph([(0, 1, {'w': object()})]), '/tmp/errdex-cases-home/x.graphml')"),
        E("nx.parse_gml('graph [ node [ id 0 ] node [ id 0 ] ]')"),
        E("nx.parse_gml('nonsense')"),
        E("nx.parse_edgelist(['1 2 {bad'])"),
        E("nx.parse_edgelist(['1 2 3'], data=[('w', float), ('x', float)])"),
        E("nx.set_node_attributes(G, 5) or nx.get_edge_attributes(G, 'w')[(0, 1)]"),
        E("nx.average_clustering(nx.Graph())"),
        E("nx.average_shortest_path_length(H)"),
        E("nx.average_shortest_path_length(nx.Graph())"),
        E("nx.draw(G)"),
    ],
)

LIBRARIES["pyyaml"] = (
    "import yaml\n",
    [
        E("yaml.safe_load('a: b: c')"),
        E("yaml.safe_load('key: [1, 2')"),
        E("yaml.safe_load('{a: 1')"),
        E("yaml.safe_load('- a\\nb: c')"),
        E("yaml.safe_load('a: 1\\n  b: 2')"),
        E("yaml.safe_load('x: \"unterminated')"),
        E("yaml.safe_load('x: *undefined')"),
        E("yaml.safe_load('x: !!python/object:os.system {}')"),
        E("yaml.safe_load('x: !custom 1')"),
        E("yaml.safe_load('\\t- tab')"),
        E("yaml.safe_load('%YAML 2.0\\n--- x')"),
        E("yaml.safe_load('%YAML 1.1\\n%YAML 1.1\\n--- x')"),
        E("yaml.safe_load('%TAG ! tag:a,\\n%TAG ! tag:b,\\n--- x')"),
        E("yaml.safe_load('x: !<tag:yaml.org,2002:int> abc')"),
        E("yaml.safe_load('x: !!timestamp nope')"),
        E("yaml.safe_load('? [a]\\n: 1')"),
        E("yaml.safe_load('a: 1\\n---\\nb: 2')"),
        E("yaml.safe_load('x: &anc 1\\ny: &anc')"),
        E("yaml.safe_load('a: |\\n  ok\\n bad')"),
        E("yaml.safe_load('\\x07')"),
        E("yaml.safe_load('x: @bad')"),
        E("yaml.safe_load('a: !!map [1]')"),
        E("yaml.safe_load('a: !!seq {x: 1}')"),
        E("yaml.safe_load('a: !!str {x: 1}')"),
        E("yaml.safe_load('!!omap [a, b]')"),
        E("yaml.safe_load('!!set [a]')"),
        E("yaml.safe_load('{[1]: 2}')"),
        E("yaml.safe_load('<<: 5')"),
        E("yaml.safe_load('x: \"\\\\q\"')"),
        E("yaml.safe_load('x: \"\\\\xZZ\"')"),
        E("yaml.safe_load(b'\\xff\\xfe\\x00')"),
        E("yaml.load('a: 1')"),
        E("yaml.safe_dump({'a': 1}, Dumper=yaml.Dumper)"),
        E("yaml.emit([yaml.StreamStartEvent(), yaml.ScalarEvent(None, None, (True, True), 'x')])"),
        E("yaml.emit([yaml.ScalarEvent(None, None, (True, True), 'x')])"),
        E("yaml.serialize(yaml.ScalarNode('tag:yaml.org,2002:str', 'x'), stream=None, version=(2, 0))"),
        E("yaml.safe_load(5)"),
    ],
)

LIBRARIES["python-dateutil"] = (
    "from dateutil import parser, relativedelta, rrule, tz, easter\nimport datetime\n",
    [
        E("parser.parse('not a date')"),
        E("parser.parse('2024-13-45')"),
        E("parser.parse('')"),
        E("parser.parse('31/02/2024', dayfirst=True)"),
        E("parser.parse('10:61')"),
        E("parser.parse('2024-01-01 25:00')"),
        E("parser.parse('99999999999999999999')"),
        E("parser.parse(20240101)"),
        E("parser.parse('2024-01-01', default='yesterday')"),
        E("parser.parse('Jan 1 2024', parserinfo=parser.parserinfo(dayfirst=True), tzinfos=5)"),
        E("parser.isoparse('2024-01-01T')"),
        E("parser.isoparse('2024-1-1')"),
        E("parser.isoparse('2024-01-01T25:00')"),
        E("parser.isoparse('2024-01-01T12:00+2500')"),
        E("parser.isoparse('2024-W60')"),
        E("parser.isoparse('20240101T1200Zjunk')"),
        E("parser.isoparse(b'\\xff')"),
        E("parser.isoparser(sep='ab')"),
        E("parser.isoparser().parse_isotime('12:00:00.')"),
        E("parser.isoparser().parse_tzstr('+99:00')"),
        E("relativedelta.relativedelta(months=1.5)"),
        E("relativedelta.relativedelta(weekday=9, yearday=400)"),
        E("relativedelta.relativedelta(dt1=datetime.date(2024, 1, 1), dt2='2024-01-01')"),
        E("relativedelta.relativedelta(nlyearday=500)"),
        E("relativedelta.relativedelta(days=1) + 'x'"),
        E("relativedelta.relativedelta(days=1) * 'x'"),
        E(
            "rrule.rrule(rrule.DAILY, dtstart=datetime.datetime(2024, 1, 1, tzinfo=tz.UTC), until=datetime.datetime(2024, 2, 1))"
        ),
        E("rrule.rrule(rrule.DAILY, dtstart=datetime.datetime(2024, 1, 1), byhour=25, count=1)[0]"),
        E("rrule.rrule(rrule.DAILY, dtstart=datetime.datetime(2024, 1, 1), bysetpos=0)"),
        E("rrule.rrulestr('FREQ=SOMETIMES')"),
        E("rrule.rrulestr('FREQ=DAILY;NOPE=1')"),
        E("rrule.rrulestr('FREQ=DAILY;BYDAY=XX')"),
        E("rrule.rrulestr('DTSTART:20240101\\nBOGUS:1', forceset=True)"),
        E("rrule.rrulestr('')"),
        E("rrule.rrule(rrule.DAILY, count=2, dtstart=datetime.datetime(2024, 1, 1))[5]"),
        E("tz.tzfile('/etc/hostname')"),
        E("tz.tzrange('EST', stdoffset='x')"),
        E("easter.easter(2024, method=9)"),
        E("datetime.datetime(2024, 1, 1, tzinfo=tz.gettz('UTC')).astimezone(tz.tzical)"),
    ],
)

LIBRARIES["rich"] = (
    "from rich.console import Console\nfrom rich.table import Table\nfrom rich.text import Text\n"
    "from rich.style import Style\nfrom rich.color import Color\nfrom rich.markup import render\n"
    "from rich import box, progress, prompt, padding, align, layout, tree, syntax, columns, markdown\n"
    "import io\nconsole = Console(file=io.StringIO(), width=80, color_system=None)\n",
    [
        E("Style.parse('bold chartreuse')"),
        E("Style.parse('on')"),
        E("Style.parse('link')"),
        E("Style.parse('not bold italic wibble')"),
        E("Color.parse('#12345')"),
        E("Color.parse('rgb(300, 0, 0)')"),
        E("Color.parse('color(999)')"),
        E("Color.parse('nosuchcolor')"),
        E("render('[bold]unclosed[/italic]')"),
        E("render('closing [/bold] nothing')"),
        E("render('[link=x]a[/link][/]')"),
        E("render('[@click=foo(]x[/]')"),
        E("Text('abc').stylize('bold', 'x')"),
        E("Text.from_markup('[red]a[/blue]')"),
        E("padding.Padding.unpack((1, 2, 3))"),
        E("align.Align('x', align='centre')"),
        E("align.Align('x', vertical='bottom-ish')"),
        E("layout.Layout().split(1, splitter='diagonal')"),
        E("layout.Layout()['missing']"),
        E("t = Table('a')\nt.add_row('1', '2', '3')\nt.add_row(object)"),
        E("t = Table('a')\nt.add_row(5)"),
        E("Table(box=box.ASCII).add_column('a', justify='sideways') or console.print(Table('a', box='square'))"),
        E("console.push_theme(5) or console.pop_theme() or console.pop_theme()"),
        E("console.pop_theme()"),
        E("with progress.Progress(console=console) as p:\n    p.update(999, advance=1)"),
        E("with progress.Progress(console=console) as p:\n    p.advance(999)"),
        E("progress.Progress(console=console).stop_task(5)"),
        E("syntax.Syntax.from_path('/nonexistent/file.py')"),
        E("console.export_text() and Console(record=False).export_html()"),
        E("Console(file=io.StringIO()).save_svg('/nonexistent/dir/out.svg')"),
        E("console.print(5, style='bold nope')"),
        E("console.rule('x', align='middle')"),
        E("box.ROUNDED.get_row([1, 2], level='middle')"),
        E("columns.Columns(['a'], align='diagonal').__rich_console__(console, console.options).__next__()"),
        E("Text('x').append(5)"),
        E("Text('x').append_text('y')"),
        E("Text('x') + 5"),
        E("Text.assemble(('a', 'b', 'c'))"),
    ],
)

LIBRARIES["polars"] = (
    "import polars as pl\ndf = pl.DataFrame({'a': [1, 2, 3], 'b': ['x', 'y', 'z']})\n",
    [
        E("pl.DataFrame([[1, 2], [3, 4]], orient='diagonal')"),
        E("pl.DataFrame(object())"),
        E("pl.DataFrame({'a': [1, 2]}, height=3)"),
        E("pl.DataFrame.deserialize(b'', format='yaml')"),
        E("df.equals(pl.DataFrame({'c': [1]})) or df.__eq__(pl.DataFrame({'c': [1]}))"),
        E("df == pl.DataFrame({'c': [1, 2, 3]})"),
        E("df == pl.DataFrame({'a': [1], 'b': ['x']})"),
        E("df[0] = pl.Series([1])"),
        E("df[[True, False, True], 'a'] = 5"),
        E("df[['a', 'b']] = [1, 2]"),
        E("df.to_torch(return_type='tensor', label='a')"),
        E("df.to_torch(return_type='dict', features=['b'])"),
        E("df.select('nope')"),
        E("df.filter(pl.col('a') > 'x')"),
        E("df.with_columns(pl.col('b').cast(pl.Int64))"),
        E("df.join(df, on='a', how='sideways')"),
        E("df.join(df, on='nope')"),
        E("df.sort('a', descending=[True, False])"),
        E("df.head(-1).item()"),
        E("df.item()"),
        E("df.item(5, 'a')"),
        E("df.row(10)"),
        E("df.row(by_predicate=pl.col('a') > 0)"),
        E("df.row(0, by_predicate=pl.col('a') > 0)"),
        E("df.rename({'a': 'b'})"),
        E("df.pivot('b', index='a', values='a', aggregate_function='median-ish')"),
        E("df.get_column('missing')"),
        E("df.get_column_index('missing')"),
        E("df.unpivot(index='zzz')"),
        E("df.sample(n=1, fraction=0.5)"),
        E("df.to_series(5)"),
        E("df.write_csv('/nonexistent/dir/out.csv')"),
        E("pl.read_csv('/nonexistent/in.csv')"),
        E("pl.read_csv(b'a,b\\n1,2,3\\n')"),
        E("pl.Series('s', [1, 'a'])"),
        E("pl.Series('s', [1, 2]).to_frame().hstack([pl.Series('t', [1])])"),
        E("pl.Series([1, 2]) + pl.Series([1, 2, 3])"),
        E("pl.Series([1, 2]).cast(pl.Date) and pl.Series(['a']).cast(pl.Int8)"),
        E("pl.Series([1, 2]).dt.year()"),
        E("pl.Series([1, 2]).str.to_uppercase()"),
        E("pl.col('a').rolling_mean(window_size=-1)"),
        E("pl.lit(1).over([]) and pl.date_range(pl.date(2024, 1, 1), pl.date(2024, 1, 5), interval='1x', eager=True)"),
        E("pl.from_dicts([{'a': 1}], schema={'a': pl.Int64, 'b': pl.Utf8}, strict=True, infer_schema_length=-5)"),
        E("pl.concat([])"),
        E("pl.concat([df, pl.DataFrame({'c': [1]})])"),
        E("pl.concat([df, df], how='sideways')"),
        E("pl.Config.set_tbl_formatting('fancy')"),
        E("pl.Config.set_fmt_str_lengths(0)"),
        E("pl.Config.set_tbl_cell_alignment('middle')"),
        E(
            "pl.Config.set_ascii_tables(True) and pl.Config.set_float_precision(-1) and pl.Config.set_thousands_separator(5)"
        ),
        E("pl.Config.load('{nope')"),
        E("pl.Config.set_decimal_separator('ab')"),
        E("df.lazy().collect(engine='warp-drive')"),
    ],
)

LIBRARIES["pandas"] = (
    "import pandas as pd\nimport numpy as np\n"
    "df = pd.DataFrame({'a': [1, 2, 3], 'b': ['x', 'y', 'z']})\n"
    "s = pd.Series([1, 2, 3], index=['p', 'q', 'r'])\n",
    [
        E("df['missing']"),
        E("df.loc[:, 'missing']"),
        E("df.loc[99]"),
        E("df.iloc[10]"),
        E("df.iloc[:, 'a']"),
        E("df.drop(columns=['nope'])"),
        E("df.rename(columns={'a': 'b'}, errors='raise') and df.rename(columns={'zz': 'c'}, errors='raise')"),
        E("df.merge(df, on='nope')"),
        E("df.merge(df, how='sideways', on='a')"),
        E("df.merge(df, left_on='a')"),
        E("df.join(df)"),
        E("df.set_index('nope')"),
        E("df.sort_values('nope')"),
        E("df.sort_values('a', ascending=[True, False])"),
        E("df.groupby('nope')"),
        E("df.groupby('a').agg('nonsense_func')"),
        E("df.groupby('a')['b'].agg({'x': 'sum'})"),
        E("df.astype({'nope': int})"),
        E("df.astype({'b': int})"),
        E("df.fillna(0, method='ffill')"),
        E("df.fillna()"),
        E("df.pivot(index='a', columns='b', values='nope')"),
        E("pd.concat([])"),
        E("pd.concat([df, 5])"),
        E("pd.concat([df, df], axis=2)"),
        E("pd.DataFrame({'a': [1, 2], 'b': [1]})"),
        E("pd.DataFrame([[1, 2]], columns=['a'])"),
        E("pd.DataFrame(5)"),
        E("pd.Series([1, 2], index=[1])"),
        E("pd.to_datetime('not a date')"),
        E("pd.to_datetime('2024-13-01', format='%Y-%m-%d')"),
        E("pd.to_numeric(['a', 'b'])"),
        E("pd.to_numeric([1], errors='ignore')"),
        E("pd.to_timedelta('ten minutes')"),
        E("pd.date_range('2024-01-01', periods=3, freq='Q-XYZ')"),
        E("pd.date_range(start='2024-01-01')"),
        E("pd.read_csv('/nonexistent/in.csv')"),
        E("pd.read_csv(__import__('io').StringIO('a,b\\n1,2'), usecols=['c'])"),
        E("pd.read_csv(__import__('io').StringIO('a,b\\n1,2'), engine='turbo')"),
        E("pd.read_json(__import__('io').StringIO('{'))"),
        E("df.to_csv(sep='ab')"),
        E("df.query('a >')"),
        E("df.eval('nope + 1')"),
        E("df.apply(lambda r: r['zz'], axis=1)"),
        E("df.reindex(['a'], axis='diagonal')"),
        E("df.head('x')"),
        E("df.sample(n=10)"),
        E("df.sample(n=1, frac=0.5)"),
        E("df.nlargest(1, 'b')"),
        E("df.quantile(1.5, numeric_only=True)"),
        E("df.resample('D')"),
        E("df.rolling(window=-1)"),
        E("df.rolling(window=2, min_periods=3)"),
        E("df.ewm()"),
        E("s.loc['zz']"),
        E("s['zz']"),
        E("s.reindex(['p', 'p']).reindex(['q'])"),
        E("s.str.upper()"),
        E("s.dt.year"),
        E("s.cat.codes"),
        E("s.astype('category').cat.add_categories([1])"),
        E("s.astype('category').cat.rename_categories([1])"),
        E("pd.Categorical(['a'], categories=['a', 'a'])"),
        E("pd.Categorical(['a'], ordered=True) < pd.Categorical(['a'], categories=['a', 'b'], ordered=True)"),
        E("pd.Interval(2, 1)"),
        E("pd.Interval(0, 1, closed='sideways')"),
        E("pd.Period('2024-01', freq='nonsense')"),
        E("pd.Timestamp('2024-01-01').tz_convert('UTC')"),
        E("pd.Timestamp('2024-01-01', tz='Mars/Olympus')"),
        E("pd.MultiIndex.from_tuples([(1, 2), (1,)], names=['a', 'b', 'c'])"),
        E("pd.Index([1, 2]).get_loc(5)"),
        E("pd.Index([1, 2]).set_names(['a', 'b'])"),
        E("pd.cut([1, 2, 3], bins=[3, 2, 1])"),
        E("pd.qcut([1, 1, 1, 1], q=2)"),
        E("pd.get_dummies(df, columns=['nope'])"),
        E("pd.melt(df, id_vars=['nope'])"),
        E("pd.crosstab(df['a'], df['b'], aggfunc='sum')"),
        E("pd.options.display.max_rows = 'many'"),
        E("pd.set_option('display.nope', 1)"),
        E("pd.set_option('display.max_rows')"),
        E("pd.get_option('display')"),
    ],
)

PYDANTIC_SETUP = """\
from typing import Literal, Optional
import pydantic
from pydantic import BaseModel, Field, field_validator, model_validator, TypeAdapter, ConfigDict, computed_field

class User(BaseModel):
    id: int
    name: str = Field(min_length=2, max_length=8)
    email: Optional[str] = Field(default=None, pattern=r'^[^@]+@[^@]+$')
    role: Literal['admin', 'user'] = 'user'
    age: int = Field(default=0, ge=0, lt=150)

class Strict(BaseModel):
    model_config = ConfigDict(extra='forbid', frozen=True)
    x: int

class Checked(BaseModel):
    a: int
    b: int

    @field_validator('a')
    @classmethod
    def a_positive(cls, v):
        if v <= 0:
            raise ValueError('a must be positive')
        return v

    @model_validator(mode='after')
    def a_less_than_b(self):
        if self.a >= self.b:
            raise ValueError(f'a ({self.a}) must be less than b ({self.b})')
        return self
"""

LIBRARIES["pydantic"] = (
    PYDANTIC_SETUP,
    [
        E("User(id='abc', name='bob')"),
        E("User(name='bob')"),
        E("User(id=1, name='b')"),
        E("User(id=1, name='bobbybobbybob')"),
        E("User(id=1, name='bob', email='nope')"),
        E("User(id=1, name='bob', role='root')"),
        E("User(id=1, name='bob', age=200)"),
        E("User(id=1.5, name='bob', age=-1)"),
        E("Strict(x=1, y=2)"),
        E("Strict(x=1).x = 2"),
        E("Checked(a=0, b=1)"),
        E("Checked(a=5, b=1)"),
        E("User.model_validate_json('{\"id\": 1,')"),
        E("User.model_validate('not a dict')"),
        E("TypeAdapter(list[int]).validate_python([1, 'x'])"),
        E("TypeAdapter(dict[str, float]).validate_python({'a': 'b'})"),
        E("TypeAdapter(pydantic.HttpUrl).validate_python('not a url')"),
        E("TypeAdapter(pydantic.conint(gt=5)).validate_python(1)"),
        E("class Bad(BaseModel):\n    x: int = Field(alias=1)"),
        E("class Bad(BaseModel):\n    model_config = ConfigDict(extra='sometimes')"),
        E("class Bad(BaseModel):\n    _x: int\n    x: 'Undefined'\nBad(x=1)"),
        E("class Bad(BaseModel):\n    x: int\n    @computed_field\n    def x(self) -> int:\n        return 1"),
        E(
            "class Bad(BaseModel):\n    model_config = ConfigDict(frozen=True)\n    x: object = Field(default=object(), frozen=False, validate_default=2, unknown_kw=3)"
        ),
        E("class Bad(BaseModel):\n    x: 'int' = 1\n    model_fields = 5"),
        E("User.model_json_schema(mode='sideways')"),
        E("User(id=1, name='bob').model_copy(update=5)"),
        E("BaseModel()"),
        E("pydantic.create_model('M', x=(int, 1, 2))"),
        E(
            "TypeAdapter(int, config=ConfigDict(strict=True)).validate_python('1') if False else "
            "TypeAdapter(User, config=ConfigDict(strict=True))"
        ),
        E("pydantic.validate_call(lambda x: x, validate_return='x')(1) if False else pydantic.validate_call(5)"),
        W("class W(BaseModel):\n    model_config = ConfigDict(fields={'x': 1})\n    x: int = 1"),
        W("User(id=1, name='bob').dict()"),
        W("User.parse_obj({'id': 1, 'name': 'bob'})"),
        W("class W(BaseModel):\n    x: int = Field(1, example=3)"),
        W("class W(BaseModel):\n    schema_json: int = 1"),
    ],
)

LIBRARIES["marshmallow"] = (
    "from marshmallow import Schema, fields, validate, ValidationError, validates, post_load\n"
    "class UserSchema(Schema):\n"
    "    name = fields.String(required=True, validate=validate.Length(min=2))\n"
    "    age = fields.Integer(validate=validate.Range(min=0))\n"
    "    email = fields.Email()\n"
    "    role = fields.String(validate=validate.OneOf(['admin', 'user']))\n",
    [
        E("UserSchema().load({})"),
        E("UserSchema().load({'name': 'a'})"),
        E("UserSchema().load({'name': 'bob', 'age': 'ten'})"),
        E("UserSchema().load({'name': 'bob', 'age': -3})"),
        E("UserSchema().load({'name': 'bob', 'email': 'nope'})"),
        E("UserSchema().load({'name': 'bob', 'role': 'root'})"),
        E("UserSchema().load({'name': 'bob', 'extra': 1})"),
        E("UserSchema(only=('nope',))"),
        E("UserSchema().load('not a dict')"),
        E("fields.Nested('NoSuchSchema').schema"),
    ],
)

LIBRARIES[PYTHON] = (
    "import json, datetime, decimal, pathlib\n",
    [
        E("1 / 0"),
        E("undefined_name + 1"),
        E("int('x')"),
        E("float('one point five')"),
        E("[1, 2, 3][10]"),
        E("{'a': 1}['b']"),
        E("None.attribute"),
        E("'abc' + 1"),
        E("len(5)"),
        E("import no_such_module_anywhere"),
        E("json.loads('{\"a\": 1,')"),
        E("json.loads('')"),
        E("json.loads('{\"a\" 1}')"),
        E("json.dumps({'a': object})"),
        E("datetime.datetime(2024, 13, 1)"),
        E("datetime.datetime.strptime('2024-01-01', '%d/%m/%Y')"),
        E("decimal.Decimal('abc')"),
        E("pathlib.Path('/nonexistent/file.txt').read_text()"),
        E("open('/etc')"),
        E("'{} {}'.format(1)"),
        E("dict(a=1).pop('b')"),
        E("tuple()[0]"),
        E("int('9' * 5000)"),
        E("[].pop()"),
        E("object().__setattr__('x', 1)"),
        W("import warnings\nwarnings.warn('user code warned', UserWarning)"),
    ],
)

# ---------------------------------------------------------------------------------------------------------------------
# Messages quoted in public issue threads. Their sites are checked against the release's wheel (read, never run) by
# verify_issue_case; the traceback stays null: the thread is the source, cited by its address.
# ---------------------------------------------------------------------------------------------------------------------


def _issue(
    package: str, version: str, exception: str, message: str, site: tuple[str, int, str], url: str, call: str
) -> dict:
    """One issue-thread case, shaped like a run case."""
    return {
        "package": package,
        "version": version,
        "kind": "error",
        "exception": exception,
        "message": message,
        "traceback": None,
        "expected": {"file": site[0], "line": site[1], "function": site[2]},
        "abstain": False,
        "why_abstain": None,
        "origin": url,
        "call": call,
        "callers": [],
    }


ISSUE_CASES: list[dict] = [
    _issue(
        "packaging",
        "24.1",
        "packaging.version.InvalidVersion",
        "Invalid version: '8.9p1-8'",
        ("packaging/version.py", 202, "Version.__init__"),
        "https://github.com/pypa/packaging/issues/815",
        "packaging.version.parse('8.9p1-8')",
    ),
    _issue(
        "packaging",
        "23.2",
        "packaging.version.InvalidVersion",
        "Invalid version: '6.7.8.9-10.el7'",
        ("packaging/version.py", 200, "Version.__init__"),
        "https://github.com/pypa/packaging/issues/749",
        "packaging.version.parse('6.7.8.9-10.el7')",
    ),
    _issue(
        "jinja2",
        "2.10",
        "jinja2.exceptions.TemplateSyntaxError",
        "Encountered unknown tag 'end'. Jinja was looking for the following tags: 'endfor' or 'else'. "
        "The innermost block that needs to be closed is 'for'.",
        ("jinja2/parser.py", 59, "Parser.fail"),
        "https://github.com/sphinx-doc/sphinx/issues/5493",
        "sphinx 'make gettext' compiling a template with {% end %} inside {% for %}",
    ),
]


# ---------------------------------------------------------------------------------------------------------------------
# Worker: runs inside the venv, one process per library.
# ---------------------------------------------------------------------------------------------------------------------


def _canon(name: str) -> str:
    """PEP 503 normalised distribution name."""
    return "-".join(part for part in name.lower().replace("_", "-").replace(".", "-").split("-") if part)


def _owner_table() -> dict[str, tuple[str, str, str]]:
    """Map each installed .py file (real path) to (distribution, version, release-relative posix path)."""
    import importlib.metadata as md

    table: dict[str, tuple[str, str, str]] = {}
    for dist in md.distributions():
        name, version = _canon(dist.metadata["Name"]), dist.version
        for file in dist.files or ():
            rel = file.as_posix()
            if rel.endswith(".py") and not rel.startswith(".."):
                table[os.path.realpath(dist.locate_file(file))] = (name, version, rel)
    return table


@functools.lru_cache(maxsize=None)
def _statements(filename: str) -> tuple[ast.stmt, ...]:
    """Every statement of a source file (empty when it cannot be read or parsed)."""
    try:
        tree = ast.parse(Path(filename).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return ()
    return tuple(node for node in ast.walk(tree) if isinstance(node, ast.stmt))


def _statement_at(filename: str, line: int) -> str | None:
    """Kind of the innermost statement covering ``line``: 'Raise', 'Assert', 'Expr:raise_from', 'Assign', ..."""
    best = None
    for node in _statements(filename):
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            if best is None or (node.end_lineno - node.lineno) <= (best.end_lineno - best.lineno):
                best = node
    if best is None:
        return None
    if isinstance(best, ast.Expr) and isinstance(best.value, ast.Call):
        func = best.value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return f"Expr:{name}"
    return type(best).__name__


def _site(owners: dict, filename: str, line: int, function: str) -> dict:
    """Describe one frame: where it is and which installed distribution owns it."""
    owner = owners.get(os.path.realpath(filename)) if not filename.startswith("<") else None
    return {
        "filename": filename,
        "line": line,
        "function": function,
        "owner": list(owner) if owner else None,
        "statement": _statement_at(filename, line) if owner else None,
    }


def _qualified(cls: type) -> str:
    """Exception type as it is printed: builtins bare, everything else module-qualified."""
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


def _run_error(exc: BaseException, origin: list | None, owners: dict) -> dict:
    """Record a caught exception: message, printed traceback and the stack that first raised it."""
    import traceback

    exc.__traceback__ = exc.__traceback__.tb_next  # drop the worker's own exec() frame
    printed = [
        (frame.f_code.co_filename, line, frame.f_code.co_qualname)
        for frame, line in traceback.walk_tb(exc.__traceback__)
    ][::-1]
    compiled = _compiled_frame(printed[0], owners) if printed else None
    if compiled is not None:  # raised inside a Cython module whose .py source ships beside it
        origin = [compiled] + printed[1:]
    elif origin is None:  # no trace event: fall back to the traceback's frames
        origin = printed
    return {
        "kind": "error",
        "exception": _qualified(type(exc)),
        "message": str(exc),
        "traceback": "".join(traceback.format_exception(exc)),
        "site": _site(owners, *origin[0]),
        "callers": [_site(owners, *frame) for frame in origin[1:]],
        "compiled": _compiled_file(printed[0]) if printed and compiled is None else None,
    }


def _stack(frame, depth: int = 12) -> list[tuple[str, int, str]]:
    """(file, line, qualname) of ``frame`` and its callers, innermost first."""
    stack = []
    while frame is not None and len(stack) < depth:
        stack.append((frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_qualname))
        frame = frame.f_back
    return stack


def _compiled_file(frame: tuple[str, int, str]) -> str | None:
    """Name of a compiled module's source (a Cython .pyx) when the traceback ends inside one."""
    filename = frame[0]
    return None if filename.startswith("<") or os.path.exists(filename) else filename


def _compiled_frame(frame: tuple[str, int, str], owners: dict) -> tuple[str, int, str] | None:
    """Map a Cython traceback entry ('lib/pkg/mod.py', line, 'pkg.mod.Class.func') to the installed .py file."""
    filename, line, name = frame
    if filename.startswith("<") or os.path.exists(filename):
        return None
    suffix = filename.replace(os.sep, "/")
    for real, (_dist, _version, rel) in owners.items():
        module = rel[:-3].replace("/", ".")
        if suffix.endswith("/" + rel) and name.startswith(module + "."):
            return (real, line, name[len(module) + 1 :])
    return None


class _RaiseTracer:
    """sys.settrace hook noting, per exception object, the frame where it was first raised.

    This is the innermost traceback frame, except when a library rewrites the traceback (jinja2 drops its
    internal frames and the compiler's), which is exactly when the printed traceback cannot be trusted.
    """

    def __init__(self) -> None:
        self.first: dict[int, tuple] = {}

    def __call__(self, frame, event, arg):
        if event == "call":
            frame.f_trace_lines = False
        elif event == "exception" and id(arg[1]) not in self.first:
            self.first[id(arg[1])] = (arg[1], _stack(frame))
        return self

    def origin(self, exc: BaseException) -> list | None:
        """The stack (innermost first) where ``exc`` was first raised, if a traced frame raised it."""
        seen = self.first.get(id(exc))
        return seen[1] if seen and seen[0] is exc else None


def _run_warning(caught: list, warn_calls: list, owners: dict) -> dict:
    """Record the first caught warning and the frame that called warnings.warn for it."""
    import linecache
    import warnings

    first = caught[0]
    text = str(first.message)
    call = next((c for c in warn_calls if c[0] == text), None)
    line = linecache.getline(first.filename, first.lineno)
    return {
        "kind": "warning",
        "exception": _qualified(first.category),
        "message": text,
        "traceback": warnings.formatwarning(first.message, first.category, first.filename, first.lineno, line),
        "site": _site(owners, *call[1][0]) if call else None,
        "callers": [_site(owners, *frame) for frame in call[1][1:]] if call else [],
    }


def _warning_text(message, category) -> str:
    """The text warnings will show: a str message is wrapped in its category first (which may reformat it)."""
    if isinstance(message, Warning):
        return str(message)
    try:
        return str((category or UserWarning)(message))
    except Exception:  # noqa: BLE001 - a category that cannot be built from the message keeps it as given
        return str(message)


def _install_warn_hook(warn_calls: list) -> None:
    """Wrap warnings.warn (before any library imports it) to learn the true calling frame of each warning."""
    import warnings

    original = warnings.warn

    def warn(message, category=None, stacklevel=1, source=None):
        warn_calls.append((_warning_text(message, category), _stack(sys._getframe(1))))
        return original(message, category, stacklevel + 1, source)

    warnings.warn = warn


def _run_case(kind: str, code: str, setup, owners: dict, warn_calls: list) -> dict:
    """Run one case in a fresh namespace and record what it raised or warned."""
    import linecache
    import warnings

    linecache.cache["<case>"] = (len(code), None, code.splitlines(True), "<case>")
    compiled = compile(code, "<case>", "exec", dont_inherit=True)
    warn_calls.clear()
    error = None
    tracer = _RaiseTracer()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sys.settrace(tracer)
        try:
            exec(compiled, _namespace(setup))
        except BaseException as exc:  # noqa: BLE001 - every failure is data here
            error = exc
        finally:
            sys.settrace(None)
    if kind == "warning":
        if not caught:
            return {"failure": f"no warning (raised {error!r})"}
        return _run_warning(caught, warn_calls, owners)
    if error is None:
        return {"failure": "did not raise"}
    return _run_error(error, tracer.origin(error), owners)


def _namespace(setup) -> dict:
    """A fresh namespace with the library's setup run in it, so no case sees another's changes."""
    namespace: dict = {"__name__": "__main__"}
    exec(setup, namespace)
    return namespace


def worker(request: Path, result: Path) -> None:
    """Run one library's cases (inside the venv) and write their raw records as JSON."""
    import platform

    warn_calls: list = []
    _install_warn_hook(warn_calls)
    spec = json.loads(request.read_text(encoding="utf-8"))
    setup = compile(spec["setup"], "<setup>", "exec", dont_inherit=True)
    _namespace(setup)  # import everything once, before the owner table is read
    owners = _owner_table()
    runs = [_run_case(kind, code, setup, owners, warn_calls) for kind, code in spec["cases"]]
    import importlib.metadata as md

    versions = {_canon(d.metadata["Name"]): d.version for d in md.distributions()}
    versions[PYTHON] = platform.python_version()
    result.write_text(json.dumps({"runs": runs, "versions": versions}), encoding="utf-8")


# ---------------------------------------------------------------------------------------------------------------------
# Driver: runs anywhere, launches the workers, labels the cases and writes benchmarks/cases/.
# ---------------------------------------------------------------------------------------------------------------------

HOME = Path("/tmp/errdex-cases-home")
ADDRESS = re.compile(r"0x[0-9a-fA-F]{8,16}\b|\b\d{12,}\b")  # memory addresses and id() values


def _worker_env() -> dict[str, str]:
    """A small fixed environment so messages do not depend on the caller's shell."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(HOME),
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "UTC",
        "COLUMNS": "100",
        "TERM": "dumb",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "AWS_CONFIG_FILE": "/nonexistent/aws-config",
        "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/aws-credentials",
        "AWS_EC2_METADATA_DISABLED": "true",
    }


def run_library(python: Path, library: str) -> dict:
    """Run one library's cases in a worker process of the venv."""
    setup, cases = LIBRARIES[library]
    HOME.mkdir(parents=True, exist_ok=True)
    request, result = HOME / f"{library}.request.json", HOME / f"{library}.result.json"
    request.write_text(json.dumps({"setup": setup, "cases": cases}), encoding="utf-8")
    result.unlink(missing_ok=True)
    proc = subprocess.run(
        [str(python), str(Path(__file__).resolve()), "--worker", str(request), str(result)],
        cwd=HOME,
        env=_worker_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    if proc.returncode != 0 or not result.exists():
        raise SystemExit(f"worker for {library} failed (exit {proc.returncode}):\n{proc.stderr[-4000:]}")
    return json.loads(result.read_text(encoding="utf-8"))


def label(library: str, kind: str, code: str, run: dict, versions: dict, indexed: frozenset) -> dict:
    """Turn a worker's raw run into a corpus record: expected site, or abstain with the reason."""
    if any(found not in code for found in ADDRESS.findall(run["message"] + (run["traceback"] or ""))):
        raise SystemExit(f"{library} case prints a memory address, so its text changes from run to run:\n{code}")
    frames = [run["site"]] + run["callers"] if run["site"] else []
    inner = _package_frame(frames)
    owner = frames[inner]["owner"] if inner is not None else None
    expected, why = None, None
    if run.get("compiled"):
        why = f"raised in compiled code ({run['compiled']}), where there is no Python raise statement"
    elif owner is None:
        where = Path(frames[0]["filename"]).name if frames else "no frame"
        why = f"raised by the interpreter or the standard library ({where}) in the caller's code, not in a package"
    elif owner[0] not in indexed:
        why = f"raised in {owner[0]}, which the benchmark does not index"
    elif kind == "error" and frames[inner]["statement"] not in RAISING_STATEMENTS:
        source = f"{owner[2]}:{frames[inner]['line']}"
        cause = (
            "by the interpreter or compiled code"
            if inner == 0
            else f"in the standard library ({Path(frames[0]['filename']).name})"
        )
        why = f"raised {cause} while running {source} ({frames[inner]['statement']}), not by a raise statement"
    else:
        expected = _where(frames[inner])
    return {
        "package": owner[0] if owner else library,
        "version": owner[1] if owner else versions[library],
        "kind": kind,
        "exception": run["exception"],
        "message": run["message"],
        "traceback": run["traceback"],
        "expected": expected,
        "abstain": expected is None,
        "why_abstain": why,
        "origin": "run",
        "call": code,
        "callers": _callers(frames[inner + 1 :], owner) if expected else [],
    }


def _package_frame(frames: list[dict]) -> int | None:
    """Index of the innermost frame inside an installed package, skipping standard-library and exec'd frames
    (six.raise_from runs in '<string>'), but never past the case's own code."""
    for index, frame in enumerate(frames):
        if frame["owner"]:
            return index
        if frame["filename"] == "<case>":
            return None
    return None


def _where(site: dict) -> dict:
    """A frame as the corpus records it: release-relative file, line, qualified function."""
    return {"file": site["owner"][2], "line": site["line"], "function": site["function"]}


def _callers(frames: list[dict], owner: list) -> list[dict]:
    """The raising frame's callers in the same package, innermost first, up to the first frame outside it."""
    callers = []
    for frame in frames:
        if not frame["owner"] or frame["owner"][0] != owner[0]:
            break
        callers.append(_where(frame))
    return callers


def _qualname_at(tree: ast.Module, line: int) -> str | None:
    """Qualified name of the innermost function around ``line`` (as co_qualname would spell it)."""
    best: tuple[int, str] | None = None

    def visit(node: ast.AST, prefix: str) -> None:
        nonlocal best
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                inside = child.lineno <= line <= child.end_lineno
                if inside and not isinstance(child, ast.ClassDef):
                    best = (child.lineno, name) if best is None or child.lineno >= best[0] else best
                tail = ".<locals>." if not isinstance(child, ast.ClassDef) else "."
                visit(child, name + tail)
            else:
                visit(child, prefix)

    visit(tree, "")
    return best[1] if best else None


def verify_issue_case(python: Path, wheels: Path, case: dict) -> None:
    """Check an issue case's expected site against the release's wheel, read as text and never run."""
    release = f"{case['package']}=={case['version']}"
    wheels.mkdir(parents=True, exist_ok=True)
    found = [w for w in wheels.glob("*.whl") if _wheel_matches(w.name, case["package"], case["version"])]
    if not found:
        subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--only-binary=:all:",
                release,
                "-d",
                str(wheels),
            ],
            check=True,
            env={**os.environ, "PIP_NO_INPUT": "1"},
        )
        found = [w for w in wheels.glob("*.whl") if _wheel_matches(w.name, case["package"], case["version"])]
    expected = case["expected"]
    with zipfile.ZipFile(found[0]) as wheel:
        source = wheel.read(expected["file"]).decode("utf-8")
    tree = ast.parse(source)
    statement = min(
        (n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n.lineno <= expected["line"] <= n.end_lineno),
        key=lambda n: n.end_lineno - n.lineno,
    )
    if not isinstance(statement, ast.Raise) or statement.lineno != expected["line"]:
        raise SystemExit(f"{case['origin']}: {release} {expected['file']}:{expected['line']} is not a raise statement")
    if _qualname_at(tree, expected["line"]) != expected["function"]:
        raise SystemExit(f"{case['origin']}: {expected['function']} is not the function at {expected['line']}")


def _wheel_matches(filename: str, package: str, version: str) -> bool:
    """True when a wheel file name is for this distribution and version."""
    name, _, rest = filename.partition("-")
    return _canon(name) == package and rest.split("-", 1)[0] == version


def build(venv: Path, out: Path, only: str | None) -> list[dict]:
    """Run every library's cases, label them and write the corpus files."""
    python = venv / "bin" / "python"
    if not python.exists():
        raise SystemExit(f"--venv {venv}: no bin/python there; create it as benchmarks/cases/README.md says")
    indexed = frozenset(lib for lib in LIBRARIES if lib != PYTHON) - NOT_INDEXED
    records: list[dict] = []
    failures: list[str] = []
    versions: dict = {}
    for library in LIBRARIES:
        if only and library != only:
            continue
        result = run_library(python, library)
        versions = result["versions"]
        _check_versions(versions)
        for (kind, code), run in zip(LIBRARIES[library][1], result["runs"]):
            if "failure" in run:
                failures.append(f"{library}: {run['failure']}: {code}")
            else:
                records.append(label(library, kind, code, run, versions, indexed))
    if failures:
        print("\n".join(failures), file=sys.stderr)
        if not only:
            raise SystemExit(f"{len(failures)} cases did not fail as written; fix them before writing the corpus")
    if only:
        return records
    for case in ISSUE_CASES:
        verify_issue_case(python, HOME / "wheels", case)
    _write(out, records + [dict(c) for c in ISSUE_CASES], indexed, versions)
    return records


def _check_versions(versions: dict) -> None:
    """Refuse a venv whose releases differ from the pins: the corpus would silently change."""
    for requirement in VENV_REQUIREMENTS:
        name, _, version = requirement.partition("==")
        if versions.get(_canon(name)) != version:
            raise SystemExit(f"venv has {name} {versions.get(_canon(name))}, the corpus needs {requirement}")


def _write(out: Path, records: list[dict], indexed: frozenset, versions: dict) -> None:
    """Write <package>.json files (ids numbered in order) and releases.txt."""
    out.mkdir(parents=True, exist_ok=True)
    by_package: dict[str, list[dict]] = {}
    for record in records:
        by_package.setdefault(record["package"], []).append(record)
    for old in out.glob("*.json"):
        old.unlink()
    for package, items in by_package.items():
        numbered = [
            {"id": f"{package}-{n}", **{k: v for k, v in r.items() if k != "id"}} for n, r in enumerate(items, 1)
        ]
        text = json.dumps(numbered, indent=1, ensure_ascii=False) + "\n"
        (out / f"{package}.json").write_text(text, encoding="utf-8")
    releases = {f"{name}=={versions[name]}" for name in indexed}
    releases |= {f"{c['package']}=={c['version']}" for c in ISSUE_CASES if not c["abstain"]}
    (out / "releases.txt").write_text("".join(f"{r}\n" for r in sorted(releases)), encoding="utf-8")


def _show(records: list[dict]) -> None:
    """Print one line per record, for writing and checking cases."""
    for r in records:
        where = (
            f"{r['expected']['file']}:{r['expected']['line']} {r['expected']['function']}"
            if r["expected"]
            else f"ABSTAIN {r['why_abstain']}"
        )
        print(f"{r['package']:<16} {r['exception'][-28:]:<28} {where}\n    {r['message'][:150]!r}")


def main(argv: list[str] | None = None) -> None:
    """Command line: build the corpus, or (internally) run as a worker inside the venv."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, help="virtualenv holding VENV_REQUIREMENTS")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: benchmarks/cases)")
    parser.add_argument("--only", help="run one library's cases and print them, writing nothing")
    parser.add_argument("--worker", nargs=2, type=Path, metavar=("REQUEST", "RESULT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(*args.worker)
        return
    if args.venv is None:
        parser.error("--venv is required")
    records = build(args.venv, args.out, args.only)
    if args.only:
        _show(records)
    else:
        print(f"wrote {len(records) + len(ISSUE_CASES)} cases to {args.out}")


if __name__ == "__main__":
    main()
