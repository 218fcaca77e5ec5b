"""polars: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import polars as pl

df = pl.DataFrame({'a': [1, 2, 3], 'b': ['x', 'y', 'z']})


# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    pl.DataFrame([[1, 2], [3, 4]], orient='diagonal')

def error_2():
    pl.DataFrame(object())

def error_3():
    pl.DataFrame({'a': [1, 2]}, height=3)

def error_4():
    pl.DataFrame.deserialize(b'', format='yaml')

def error_5():
    df.equals(pl.DataFrame({'c': [1]})) or df.__eq__(pl.DataFrame({'c': [1]}))

def error_6():
    df == pl.DataFrame({'c': [1, 2, 3]})  # noqa: B015

def error_7():
    df == pl.DataFrame({'a': [1], 'b': ['x']})  # noqa: B015

def error_8():
    df[0] = pl.Series([1])

def error_9():
    df[[True, False, True], 'a'] = 5

def error_10():
    df[['a', 'b']] = [1, 2]

def error_11():
    df.to_torch(return_type='tensor', label='a')

def error_12():
    df.to_torch(return_type='dict', features=['b'])

def error_13():
    df.select('nope')

def error_14():
    df.filter(pl.col('a') > 'x')

def error_15():
    df.with_columns(pl.col('b').cast(pl.Int64))

def error_16():
    df.join(df, on='a', how='sideways')

def error_17():
    df.join(df, on='nope')

def error_18():
    df.sort('a', descending=[True, False])

def error_19():
    df.head(-1).item()

def error_20():
    df.item()

def error_21():
    df.item(5, 'a')

def error_22():
    df.row(10)

def error_23():
    df.row(by_predicate=pl.col('a') > 0)

def error_24():
    df.row(0, by_predicate=pl.col('a') > 0)

def error_25():
    df.rename({'a': 'b'})

def error_26():
    df.pivot('b', index='a', values='a', aggregate_function='median-ish')

def error_27():
    df.get_column('missing')

def error_28():
    df.get_column_index('missing')

def error_29():
    df.unpivot(index='zzz')

def error_30():
    df.sample(n=1, fraction=0.5)

def error_31():
    df.to_series(5)

def error_32():
    df.write_csv('/nonexistent/dir/out.csv')

def error_33():
    pl.read_csv('/nonexistent/in.csv')

def error_34():
    pl.read_csv(b'a,b\n1,2,3\n')

def error_35():
    pl.Series('s', [1, 'a'])

def error_36():
    pl.Series('s', [1, 2]).to_frame().hstack([pl.Series('t', [1])])

def error_37():
    pl.Series([1, 2]) + pl.Series([1, 2, 3])

def error_38():
    pl.Series([1, 2]).cast(pl.Date) and pl.Series(['a']).cast(pl.Int8)

def error_39():
    pl.Series([1, 2]).dt.year()

def error_40():
    pl.Series([1, 2]).str.to_uppercase()

def error_41():
    pl.col('a').rolling_mean(window_size=-1)

def error_42():
    pl.lit(1).over([]) and pl.date_range(pl.date(2024, 1, 1), pl.date(2024, 1, 5), interval='1x', eager=True)

def error_43():
    pl.from_dicts([{'a': 1}], schema={'a': pl.Int64, 'b': pl.Utf8}, strict=True, infer_schema_length=-5)

def error_44():
    pl.concat([])

def error_45():
    pl.concat([df, pl.DataFrame({'c': [1]})])

def error_46():
    pl.concat([df, df], how='sideways')

def error_47():
    pl.Config.set_tbl_formatting('fancy')

def error_48():
    pl.Config.set_fmt_str_lengths(0)

def error_49():
    pl.Config.set_tbl_cell_alignment('middle')

def error_50():
    pl.Config.set_ascii_tables(True) and pl.Config.set_float_precision(-1) and pl.Config.set_thousands_separator(5)

def error_51():
    pl.Config.load('{nope')

def error_52():
    pl.Config.set_decimal_separator('ab')

def error_53():
    df.lazy().collect(engine='warp-drive')
