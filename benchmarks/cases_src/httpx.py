"""httpx: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import httpx

# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    httpx.URL('http://[::1/')

def error_2():
    httpx.URL('http://example.com/\x00')

def error_3():
    httpx.URL(123)

def error_4():
    httpx.URL('http://example.com', nope=1)

def error_5():
    httpx.URL('http://example.com', port='80')

def error_6():
    httpx.URL('http://example.com').copy_with(scheme=1)

def error_7():
    httpx.get('example.com/path')

def error_8():
    httpx.get('ftp://example.com/')

def error_9():
    httpx.get('http:///path')

def error_10():
    httpx.Timeout(connect=5)

def error_11():
    httpx.Limits(max_connections='x') and httpx.Client(limits=1)

def error_12():
    httpx.Headers({'a': 1})

def error_13():
    httpx.Headers({'X-Bad': 'a\nb'}).raw and httpx.Request('GET', 'http://example.com', headers={'x': 'café'})

def error_14():
    httpx.Request('GET', 'http://example.com', content=123)

def error_15():
    httpx.Request('GET', 'http://example.com', content=iter([b'x'])).content  # noqa: B018

def error_16():
    httpx.Response(200).raise_for_status()

def error_17():
    httpx.Response(404, request=httpx.Request('GET', 'http://example.com/missing')).raise_for_status()

def error_18():
    httpx.Response(500, request=httpx.Request('GET', 'http://example.com/boom')).raise_for_status()

def error_19():
    httpx.Response(302, request=httpx.Request('GET', 'http://example.com/r')).raise_for_status()

def error_20():
    httpx.Response(200, content=b'{').json()

def error_21():
    httpx.Response(200).request  # noqa: B018

def error_22():
    httpx.Response(200).elapsed  # noqa: B018

def error_23():
    httpx.Response(200, content=iter([b'x'])).content  # noqa: B018

def error_24():
    httpx.QueryParams(object())

def error_25():
    httpx.Cookies().set('a', '1', domain='x.com') or (lambda c: (c.set('a', '1', domain='x.com'), c.set('a', '2', domain='y.com'), c['a']))(httpx.Cookies())  # noqa: E501

def error_26():
    httpx.Cookies()['missing']

def error_27():
    httpx.Client(proxy='nope://proxy:1')

def error_28():
    httpx.Client(proxy='http://proxy:1', mounts={'http://': 1}).get('http://example.com')

def error_29():
    httpx.Client().close() or (lambda c: (c.close(), c.get('http://example.com')))(httpx.Client())

def error_30():
    httpx.Client(app=1)

def error_31():
    httpx.Client(auth=1)

def error_32():
    httpx.BasicAuth(1, 2).auth_flow(httpx.Request('GET', 'http://x')).__next__()
