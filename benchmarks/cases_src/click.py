"""click: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

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
def main(*args):  # its return stays on line 32 of the setup: the corpus's tracebacks print that line number
    return cli.main(list(args), prog_name='tool', standalone_mode=False)


# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    main('run')

def error_2():
    main('run', '--count', 'x')

def error_3():
    main('run', '--count', '1', '--ratio', 'half')

def error_4():
    main('run', '--count', '1', '--mode', 'medium')

def error_5():
    main('run', '--count', '1', '--level', '9')

def error_6():
    main('run', '--count', '1', '--frac', '1')

def error_7():
    main('run', '--count', '1', '--enabled', 'maybe')

def error_8():
    main('run', '--count', '1', '--uid', 'not-a-uuid')

def error_9():
    main('run', '--count', '1', '--when', '31/12/2024')

def error_10():
    main('run', '--count', '1', '--src', '/nonexistent/path.txt')

def error_11():
    main('run', '--count', '1', '--infile', '/nonexistent/in.txt')

def error_12():
    main('run', '--count', '1', '--point', '1')

def error_13():
    main('run', '--count', '1', '--point', '1', 'b')

def error_14():
    main('run', '--count', '1', '--colour', 'red')

def error_15():
    main('run', '--count', '1', '--cont')

def error_16():
    main('run', '--count')

def error_17():
    main('run', '--count', '1', '--flag=yes')

def error_18():
    main('deploy')

def error_19():
    main('copyy', 'a')

def error_20():
    main('copy')

def error_21():
    main('copy', 'a', 'b', 'c', 'd')

def error_22():
    main('copy', 'a', '/etc/hostname')

def error_23():
    main()

def error_24():
    click.Option(['--x'], nargs=-1)

def error_25():
    click.Option(['--x/--y'], type=int)

def error_26():
    click.Option(['--x'], count=True, multiple=True)

def error_27():
    click.Option(['--x'], count=True, is_flag=True)

def error_28():
    click.Option(['--x/--x'])

def error_29():
    click.Option(['x'])

def error_30():
    click.Option(['--a', '--a'], required=True, deprecated=True)

def error_31():
    click.Option(['-', '--'])

def error_32():
    click.Argument(['x'], multiple=True)

def error_33():
    click.Argument(['a', 'b'])

def error_34():
    click.style('hi', fg='chartreuse')

def error_35():
    click.get_text_stream('stdweird')

def error_36():
    click.get_binary_stream('stdweird')

def error_37():
    click.Context(cli).fail('custom failure text')

def error_38():
    click.Context(cli).abort()

def error_39():
    click.Context(cli).exit(3)

def error_40():
    click.Choice(['a', 'b']).convert('c', None, None)

def error_41():
    click.Path(exists=True, dir_okay=False).convert('/etc', None, None)

def error_42():
    click.Path(exists=True, file_okay=False).convert('/etc/hostname', None, None)

def error_43():
    click.INT.convert(None, None, None)

def error_44():
    click.progressbar()

def error_45():
    click.progressbar(range(3)).__iter__().__next__()

def error_46():
    click.command()(click.command()(lambda: None))

def error_47():
    click.version_option()(click.command(name='noversion')(lambda: None)).main(['--version'], standalone_mode=False)

def warning_48():
    click.BaseCommand  # noqa: B018

def warning_49():
    click.parser.OptionParser  # noqa: B018

def warning_50():
    click.utils.LazyFile  # noqa: B018

def warning_51():
    click.Context(cli).protected_args  # noqa: B018

def warning_52():
    cmd = click.command()(click.option('--n')(click.option('--n')(lambda n: None)))
    cmd.main([], standalone_mode=False)

def warning_53():
    cmd = click.command()(click.argument('n')(click.option('--n', 'n')(lambda n: None)))
    cmd.main(['1'], standalone_mode=False)
