"""rich: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import io

from rich import align, box, columns, layout, padding, progress, syntax
from rich.color import Color
from rich.console import Console
from rich.markup import render
from rich.style import Style
from rich.table import Table
from rich.text import Text

console = Console(file=io.StringIO(), width=80, color_system=None)


# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    Style.parse('bold chartreuse')

def error_2():
    Style.parse('on')

def error_3():
    Style.parse('link')

def error_4():
    Style.parse('not bold italic wibble')

def error_5():
    Color.parse('#12345')

def error_6():
    Color.parse('rgb(300, 0, 0)')

def error_7():
    Color.parse('color(999)')

def error_8():
    Color.parse('nosuchcolor')

def error_9():
    render('[bold]unclosed[/italic]')

def error_10():
    render('closing [/bold] nothing')

def error_11():
    render('[link=x]a[/link][/]')

def error_12():
    render('[@click=foo(]x[/]')

def error_13():
    Text('abc').stylize('bold', 'x')

def error_14():
    Text.from_markup('[red]a[/blue]')

def error_15():
    padding.Padding.unpack((1, 2, 3))

def error_16():
    align.Align('x', align='centre')

def error_17():
    align.Align('x', vertical='bottom-ish')

def error_18():
    layout.Layout().split(1, splitter='diagonal')

def error_19():
    layout.Layout()['missing']

def error_20():
    t = Table('a')
    t.add_row('1', '2', '3')
    t.add_row(object)

def error_21():
    t = Table('a')
    t.add_row(5)

def error_22():
    Table(box=box.ASCII).add_column('a', justify='sideways') or console.print(Table('a', box='square'))

def error_23():
    console.push_theme(5) or console.pop_theme() or console.pop_theme()

def error_24():
    console.pop_theme()

def error_25():
    with progress.Progress(console=console) as p:
        p.update(999, advance=1)

def error_26():
    with progress.Progress(console=console) as p:
        p.advance(999)

def error_27():
    progress.Progress(console=console).stop_task(5)

def error_28():
    syntax.Syntax.from_path('/nonexistent/file.py')

def error_29():
    console.export_text() and Console(record=False).export_html()

def error_30():
    Console(file=io.StringIO()).save_svg('/nonexistent/dir/out.svg')

def error_31():
    console.print(5, style='bold nope')

def error_32():
    console.rule('x', align='middle')

def error_33():
    box.ROUNDED.get_row([1, 2], level='middle')

def error_34():
    columns.Columns(['a'], align='diagonal').__rich_console__(console, console.options).__next__()

def error_35():
    Text('x').append(5)

def error_36():
    Text('x').append_text('y')

def error_37():
    Text('x') + 5

def error_38():
    Text.assemble(('a', 'b', 'c'))
