"""sqlalchemy: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import sqlalchemy as sa
from sqlalchemy import Column, ForeignKey, Integer, MetaData, String, Table, create_engine, func, inspect, select, text
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

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


# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    create_engine('nope://')

def error_2():
    create_engine('not a url')

def error_3():
    create_engine('postgresql+nosuchdriver://u@h/db')

def error_4():
    create_engine('sqlite://', not_an_argument=1)

def error_5():
    sa.engine.make_url('mysql://user@host:notaport/db').port  # noqa: B018

def error_6():
    sa.engine.make_url(5)

def error_7():
    Column('x', Integer, primary_key=True, nonsense=1)

def error_8():
    Table('users', md, Column('id', Integer))

def error_9():
    Table('t2', md, Column('a', Integer), Column('a', Integer))

def error_10():
    users.c.nope  # noqa: B018

def error_11():
    select(users).where(users.c.name == 'x').order_by('nope').compile(engine)

def error_12():
    select(1).subquery().c.nope  # noqa: B018

def error_13():
    select('not a column')

def error_14():
    users.insert().values(nope=1).compile()

def error_15():
    users.update().values({'nope': 1}).compile()

def error_16():
    with engine.connect() as c:
        c.execute('SELECT 1')

def error_17():
    with engine.connect() as c:
        c.execute(text('SELECT * FROM missing_table'))

def error_18():
    with engine.connect() as c:
        c.execute(text('SELEC 1'))

def error_19():
    with engine.connect() as c:
        c.execute(text('SELECT :a'))

def error_20():
    with engine.connect() as c:
        c.execute(text('SELECT 1')).scalar_one() and c.execute(text('SELECT 1 WHERE 0')).scalar_one()

def error_21():
    with engine.connect() as c:
        c.execute(text('SELECT 1 UNION SELECT 2')).one()

def error_22():
    with engine.connect() as c:
        c.execute(users.insert(), [{'id': 1}, {'id': 1}])

def error_23():
    with engine.connect() as c:
        r = c.execute(text('SELECT 1 AS a'))
        r.mappings().one()['b']

def error_24():
    with engine.connect() as c:
        r = c.execute(text('SELECT 1 AS a'))
        r.one().b  # noqa: B018

def error_25():
    c = engine.connect()
    c.close()
    c.execute(text('SELECT 1'))

def error_26():
    with Session(engine) as s:
        s.get(User, 1, nonsense=True)

def error_27():
    with Session(engine) as s:
        s.execute(select(User).where(User.id == 1)).scalar_one()

def error_28():
    with Session(engine) as s:
        s.add(object())

def error_29():
    with Session(engine) as s:
        s.add(User(id=1, name='a'))
        s.add(User(id=1, name='b'))
        s.flush()

def error_30():
    User(nonexistent='x')

def error_31():
    User.nope  # noqa: B018

def error_32():
    inspect(42)

def error_33():
    inspect(engine).get_columns('missing_table')

def error_34():
    class Bad(Base):
        __tablename__ = 'bad'
        name: Mapped[str] = mapped_column(String)

def error_35():
    class NoTable(Base):
        id: Mapped[int] = mapped_column(primary_key=True)

def error_36():
    class Dup(Base):
        __tablename__ = 'orm_users'
        id: Mapped[int] = mapped_column(primary_key=True)

def error_37():
    class A(Base):
        __tablename__ = 'a_tbl'
        id: Mapped[int] = mapped_column(primary_key=True)
        bs = relationship('Missing')
    sa.orm.configure_mappers()

def error_38():
    class P(Base):
        __tablename__ = 'p_tbl'
        id: Mapped[int] = mapped_column(primary_key=True)
        kids = relationship('Kid')
    class Kid(Base):
        __tablename__ = 'kid_tbl'
        id: Mapped[int] = mapped_column(primary_key=True)
    sa.orm.configure_mappers()

def error_39():
    sa.Enum('a', 'b', validate_strings=True).bind_processor(sa.create_engine('sqlite://').dialect)('c')

def error_40():
    sa.Numeric(10, 2).result_processor(engine.dialect, None) and sa.Interval().bind_processor(engine.dialect)('x')

def error_41():
    func.count(users.c.id).over(order_by='x', rows=(1, 'a'))

def error_42():
    select(users).limit('ten')

def error_43():
    sa.literal_column('x').label(None).compile(dialect=None) and text('SELECT :x').bindparams(y=1)

def error_44():
    sa.column('x').in_(5)

def error_45():
    ForeignKey('users.id').column  # noqa: B018

def error_46():
    md2 = MetaData()
    t = Table('t', md2, Column('x', Integer, ForeignKey('nowhere.id')))
    t.c.x.references(users) or list(t.foreign_keys)[0].column

def warning_47():
    sa.Table('warn_tbl', MetaData(), Column('a', Integer), Column('b', Integer, default=1, server_default='2')).c.a.copy()  # noqa: E501

def warning_48():
    select(users.c.id).where(users.c.id.in_(select(users.c.id).subquery()))
