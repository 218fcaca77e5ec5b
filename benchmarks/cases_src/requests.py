"""requests: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors
# ruff: noqa: E702 - some cases build a response in one line of statements

import requests
from requests.models import PreparedRequest

# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    requests.get('example.com/path')

def error_2():
    requests.get('')

def error_3():
    requests.get('http://')

def error_4():
    requests.get('http://exa mple.com:port/')

def error_5():
    requests.get('ftp2://example.com')

def error_6():
    requests.get('http://example.com:99999999/')

def error_7():
    requests.get('http://[::1')

def error_8():
    requests.get('http://.example.com/')

def error_9():
    requests.get('http://' + 'a' * 70 + '.com/')

def error_10():
    requests.get('http://example.com', timeout=(1, 2, 3))

def error_11():
    requests.get('http://example.com', timeout='5')

def error_12():
    requests.post('http://example.com', files={'f': 123}, data=[(1, 2)], json=None, stream=None, verify='/nonexistent/ca.pem')  # noqa: E501

def error_13():
    requests.get('https://example.com', verify='/nonexistent/ca.pem')

def error_14():
    requests.get('https://example.com', cert='/nonexistent/cert.pem')

def error_15():
    requests.get('https://example.com', cert=('/nonexistent/cert.pem', '/nonexistent/key.pem'))

def error_16():
    requests.request('GET', 'http://example.com', params=object())

def error_17():
    requests.post('http://example.com', data=b'x', files={'f': 'x'})

def error_18():
    requests.post('http://example.com', data='raw', files={'f': ('a', b'1')})

def error_19():
    PreparedRequest().prepare(method='GET', url='http://example.com', headers={'X-Bad': 'a\nb'})

def error_20():
    PreparedRequest().prepare(method='GET', url='http://example.com', headers={'X-Num': 5})

def error_21():
    PreparedRequest().prepare(method='GET', url='http://example.com', headers={' Lead': 'x'})

def error_22():
    requests.Response().raise_for_status() or requests.Response().json()

def error_23():
    r = requests.Response(); r.status_code = 404; r.reason = 'Not Found'; r.url = 'http://example.com/x'
    r.raise_for_status()

def error_24():
    r = requests.Response(); r.status_code = 503; r.reason = 'Service Unavailable'; r.url = 'http://example.com/y'
    r.raise_for_status()

def error_25():
    r = requests.Response(); r._content = b'<html>'; r.encoding = 'utf-8'
    r.json()

def error_26():
    requests.Session().get_adapter('gopher://example.com')

def error_27():
    requests.auth.HTTPDigestAuth('u', 'p').build_digest_header('GET', 'http://x') or requests.utils.get_auth_from_url(1)

def error_28():
    requests.utils.from_key_val_list(1)

def error_29():
    requests.utils.check_header_validity(('X', 'a\rb'))

def error_30():
    requests.utils.unquote_unreserved('%zz')

def error_31():
    requests.cookies.RequestsCookieJar()['missing']

def error_32():
    requests.cookies.create_cookie('a', '1', nonsense=True)
