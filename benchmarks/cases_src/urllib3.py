"""urllib3: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import urllib3
from urllib3.util import Retry, Timeout, parse_url

# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    parse_url('http://exa mple.com:port/')

def error_2():
    parse_url('http://example.com:99999999')

def error_3():
    parse_url('http://[::1')

def error_4():
    urllib3.PoolManager().connection_from_url('ftp://example.com')

def error_5():
    urllib3.HTTPConnectionPool('example.com').urlopen('GET', 'http://other.example/x', assert_same_host=True)

def error_6():
    Timeout(connect=-1)

def error_7():
    Timeout(read='5')

def error_8():
    Timeout(total=True)

def error_9():
    Retry(total=0).increment(method='GET', url='/x')

def error_10():
    Retry(total=1, status_forcelist=[500]).increment(method='GET', url='/x', response=urllib3.HTTPResponse(status=500)).increment(method='GET', url='/x', response=urllib3.HTTPResponse(status=500))  # noqa: E501

def error_11():
    Retry(backoff_max=-1, allowed_methods={'GET'}, method_whitelist={'GET'})

def error_12():
    urllib3.util.make_headers(proxy_basic_auth=1)

def error_13():
    urllib3.HTTPResponse(body=b'{', headers={'content-type': 'application/json'}).json()

def error_14():
    urllib3.ProxyManager('example.com:3128')

def error_15():
    urllib3.ProxyManager('socks5://example.com:1080')

def error_16():
    urllib3.util.ssl_.resolve_cert_reqs('CERT_SOMETIMES')

def error_17():
    urllib3.util.ssl_.resolve_ssl_version('PROTOCOL_NOPE')

def error_18():
    urllib3.util.ssl_.create_urllib3_context(ssl_minimum_version=1, ssl_version=2)

def error_19():
    urllib3.util.ssl_.assert_fingerprint(b'abc', 'zz:11')

def error_20():
    urllib3.util.ssl_.assert_fingerprint(b'abc', 'aa' * 20)

def error_21():
    urllib3.fields.RequestField('f', 'x').make_multipart(content_disposition='bad\nheader') or urllib3.encode_multipart_formdata({'a': object()})  # noqa: E501

def error_22():
    urllib3.HTTPHeaderDict({'a': '1'})['b']

def error_23():
    urllib3.HTTPHeaderDict().extend(1, 2)

def error_24():
    p = urllib3.HTTPConnectionPool('example.com', maxsize=1, block=True)
    p._get_conn()
    p._get_conn(timeout=0.01)

def error_25():
    p = urllib3.HTTPConnectionPool('example.com')
    p.close()
    p._get_conn()

def error_26():
    urllib3.request('GET', 'http://example.com', json={'a': 1}, body=b'x')
