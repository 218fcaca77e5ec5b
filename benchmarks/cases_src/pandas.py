"""pandas: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import pandas as pd

df = pd.DataFrame({'a': [1, 2, 3], 'b': ['x', 'y', 'z']})
s = pd.Series([1, 2, 3], index=['p', 'q', 'r'])


# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    df['missing']

def error_2():
    df.loc[:, 'missing']

def error_3():
    df.loc[99]

def error_4():
    df.iloc[10]

def error_5():
    df.iloc[:, 'a']

def error_6():
    df.drop(columns=['nope'])

def error_7():
    df.rename(columns={'a': 'b'}, errors='raise') and df.rename(columns={'zz': 'c'}, errors='raise')

def error_8():
    df.merge(df, on='nope')

def error_9():
    df.merge(df, how='sideways', on='a')

def error_10():
    df.merge(df, left_on='a')

def error_11():
    df.join(df)

def error_12():
    df.set_index('nope')

def error_13():
    df.sort_values('nope')

def error_14():
    df.sort_values('a', ascending=[True, False])

def error_15():
    df.groupby('nope')

def error_16():
    df.groupby('a').agg('nonsense_func')

def error_17():
    df.groupby('a')['b'].agg({'x': 'sum'})

def error_18():
    df.astype({'nope': int})

def error_19():
    df.astype({'b': int})

def error_20():
    df.fillna(0, method='ffill')

def error_21():
    df.fillna()

def error_22():
    df.pivot(index='a', columns='b', values='nope')

def error_23():
    pd.concat([])

def error_24():
    pd.concat([df, 5])

def error_25():
    pd.concat([df, df], axis=2)

def error_26():
    pd.DataFrame({'a': [1, 2], 'b': [1]})

def error_27():
    pd.DataFrame([[1, 2]], columns=['a'])

def error_28():
    pd.DataFrame(5)

def error_29():
    pd.Series([1, 2], index=[1])

def error_30():
    pd.to_datetime('not a date')

def error_31():
    pd.to_datetime('2024-13-01', format='%Y-%m-%d')

def error_32():
    pd.to_numeric(['a', 'b'])

def error_33():
    pd.to_numeric([1], errors='ignore')

def error_34():
    pd.to_timedelta('ten minutes')

def error_35():
    pd.date_range('2024-01-01', periods=3, freq='Q-XYZ')

def error_36():
    pd.date_range(start='2024-01-01')

def error_37():
    pd.read_csv('/nonexistent/in.csv')

def error_38():
    pd.read_csv(__import__('io').StringIO('a,b\n1,2'), usecols=['c'])

def error_39():
    pd.read_csv(__import__('io').StringIO('a,b\n1,2'), engine='turbo')

def error_40():
    pd.read_json(__import__('io').StringIO('{'))

def error_41():
    df.to_csv(sep='ab')

def error_42():
    df.query('a >')

def error_43():
    df.eval('nope + 1')

def error_44():
    df.apply(lambda r: r['zz'], axis=1)

def error_45():
    df.reindex(['a'], axis='diagonal')

def error_46():
    df.head('x')

def error_47():
    df.sample(n=10)

def error_48():
    df.sample(n=1, frac=0.5)

def error_49():
    df.nlargest(1, 'b')

def error_50():
    df.quantile(1.5, numeric_only=True)

def error_51():
    df.resample('D')

def error_52():
    df.rolling(window=-1)

def error_53():
    df.rolling(window=2, min_periods=3)

def error_54():
    df.ewm()

def error_55():
    s.loc['zz']

def error_56():
    s['zz']

def error_57():
    s.reindex(['p', 'p']).reindex(['q'])

def error_58():
    s.str.upper()

def error_59():
    s.dt.year  # noqa: B018

def error_60():
    s.cat.codes  # noqa: B018

def error_61():
    s.astype('category').cat.add_categories([1])

def error_62():
    s.astype('category').cat.rename_categories([1])

def error_63():
    pd.Categorical(['a'], categories=['a', 'a'])

def error_64():
    pd.Categorical(['a'], ordered=True) < pd.Categorical(['a'], categories=['a', 'b'], ordered=True)  # noqa: B015

def error_65():
    pd.Interval(2, 1)

def error_66():
    pd.Interval(0, 1, closed='sideways')

def error_67():
    pd.Period('2024-01', freq='nonsense')

def error_68():
    pd.Timestamp('2024-01-01').tz_convert('UTC')

def error_69():
    pd.Timestamp('2024-01-01', tz='Mars/Olympus')

def error_70():
    pd.MultiIndex.from_tuples([(1, 2), (1,)], names=['a', 'b', 'c'])

def error_71():
    pd.Index([1, 2]).get_loc(5)

def error_72():
    pd.Index([1, 2]).set_names(['a', 'b'])

def error_73():
    pd.cut([1, 2, 3], bins=[3, 2, 1])

def error_74():
    pd.qcut([1, 1, 1, 1], q=2)

def error_75():
    pd.get_dummies(df, columns=['nope'])

def error_76():
    pd.melt(df, id_vars=['nope'])

def error_77():
    pd.crosstab(df['a'], df['b'], aggfunc='sum')

def error_78():
    pd.options.display.max_rows = 'many'

def error_79():
    pd.set_option('display.nope', 1)

def error_80():
    pd.set_option('display.max_rows')

def error_81():
    pd.get_option('display')
