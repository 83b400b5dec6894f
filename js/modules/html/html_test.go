package k6html_test

import (
	"strings"
	"testing"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/jstest"
)

// fixture is the page the tests parse: a definition list, nested lists, a
// heading with data-* attributes, mixed content, links, a login form and a
// table.
const fixture = `<!DOCTYPE html>
<html lang="en">
<head><title>Fixture page</title><link rel="stylesheet alternate" href="/style.css"></head>
<body>
<dl id="terms">
  <dt id="term-1">term 1</dt>
  <dd>definition 1-a</dd>
  <dd>definition 1-b</dd>
  <dt id="term-2">term 2</dt>
  <dd>definition 2-a</dd>
  <dt id="term-3">term 3</dt>
  <dd>definition 3-a</dd>
</dl>
<ul id="one" class="level-1">
  <li class="item-i">I</li>
  <li id="ii" class="item-ii">II<ul class="level-2"><li class="item-a">A</li><li class="item-b">B</li></ul></li>
  <li class="item-iii">III</li>
</ul>
<h1 data-test-id="data-value" data-count="42" data-flag="true" data-obj='{"a":1}' data-text="0x10">Hola</h1>
<p id="mixed">text <!-- note --> <b>bold</b></p>
<a id="link" href="http://user:pw@example.com:8080/path/x?q=1#frag" rel="prev next">Example</a>
<a id="rel" href="/next?page=2">Next page</a>
<form id="login" action="/login" method="POST">
  <label for="user">User</label>
  <input id="user" name="username" value="ada">
  <input type="password" name="password">
  <input type="checkbox" name="remember" checked>
  <input type="checkbox" name="news" value="yes">
  <input type="radio" name="plan" value="free">
  <input type="radio" name="plan" value="pro" checked>
  <input type="text" name="off" value="x" disabled>
  <input type="file" name="upload">
  <select name="colour"><option value="r">Red</option><option selected>Green</option></select>
  <select name="tags" multiple><option selected>a</option><option>b</option><option selected>c</option></select>
  <textarea name="note">line1
line2</textarea>
  <label>Age <input name="age" type="number" value="36"></label>
  <button type="submit" name="go" value="login">Log in</button>
</form>
<table id="t"><caption>Cap</caption><thead><tr><th>H</th></tr></thead><tbody><tr><td>1</td><td colspan="2">2</td></tr><tr><td>3</td></tr></tbody></table>
</body></html>`

// newVU starts a real VU on a script that imports k6/html (the default
// export as html, parseHTML as a named import) and parses the fixture
// into the global doc.
func newVU(t *testing.T) *sobek.Runtime {
	t.Helper()
	src := "import html from 'k6/html';\nimport { parseHTML } from 'k6/html';\n" +
		"globalThis.html = html;\nglobalThis.parseHTML = parseHTML;\n" +
		"globalThis.doc = parseHTML(" + jsString(fixture) + ");\n" +
		"export default function () {}\n"
	return jstest.NewVU(t, src).Runtime()
}

// jsString quotes s as a JavaScript template literal.
func jsString(s string) string {
	return "`" + strings.NewReplacer("`", "\\`", "${", "\\${").Replace(s) + "`"
}

// expectation is a JavaScript expression and the JSON of its value
// ("undefined" for undefined).
type expectation struct{ expr, want string }

// check evaluates each expression in rt and compares the JSON of its value.
func check(t *testing.T, rt *sobek.Runtime, cases []expectation) {
	t.Helper()
	for _, c := range cases {
		got, err := rt.RunString("String(JSON.stringify(" + c.expr + "))")
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if got.String() != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
}

// TestSelectionMethods runs every Selection method k6 documents on the
// fixture, through the default export and the named one.
func TestSelectionMethods(t *testing.T) {
	rt := newVU(t)
	check(t, rt, []expectation{
		{`typeof html.parseHTML`, `"function"`},
		{`(() => { const keys = []; for (const k in doc) keys.push(k); return keys; })()`, `[]`},
		{`html.parseHTML('<p>x</p>').find('p').text()`, `"x"`},
		// attr
		{`doc.find('html').attr('lang')`, `"en"`},
		{`doc.find('#link').attr('missing')`, `undefined`},
		{`doc.find('nothing').attr('id')`, `undefined`},
		// children
		{`doc.find('dl').children().size()`, `7`},
		{`doc.find('dl').children('dt').size()`, `3`},
		// closest
		{`doc.find('li.item-a').closest('ul').attr('class')`, `"level-2"`},
		{`doc.find('li.item-a').closest('li').attr('class')`, `"item-a"`},
		{`doc.find('li.item-a').closest(doc.find('#ii')).attr('class')`, `"item-ii"`},
		// contents
		{`doc.find('#mixed').contents().size()`, `4`},
		{`doc.find('dt').contents().text()`, `"term 1term 2term 3"`},
		// data
		{`doc.find('h1').data('test-id')`, `"data-value"`},
		{`doc.find('h1').data('testId')`, `"data-value"`},
		{`doc.find('h1').data('count')`, `42`},
		{`doc.find('h1').data('flag')`, `true`},
		{`doc.find('h1').data('obj')`, `{"a":1}`},
		{`doc.find('h1').data('text')`, `"0x10"`},
		{`doc.find('h1').data('missing')`, `undefined`},
		{`doc.find('h1').data()`, `{"testId":"data-value","count":42,"flag":true,"obj":{"a":1},"text":"0x10"}`},
		{`doc.find('nothing').data()`, `undefined`},
		// each
		{`(() => { const out = []; doc.find('dt').each((i, el) => { out.push(i + ':' + el.id()); }); return out; })()`,
			`["0:term-1","1:term-2","2:term-3"]`},
		{`(() => { const out = []; doc.find('dt').each(function (i) { out.push(this.id()); return i < 1; }); return out; })()`,
			`["term-1","term-2"]`},
		// eq
		{`doc.find('dt').eq(1).text()`, `"term 2"`},
		{`doc.find('dt').eq(-1).text()`, `"term 3"`},
		{`doc.find('dt').eq(5).size()`, `0`},
		// filter
		{`doc.find('dl').children().filter('#term-2').text()`, `"term 2"`},
		{`doc.find('dl').children().filter((i, s) => s.text() === 'definition 2-a').text()`, `"definition 2-a"`},
		{`doc.find('dl').children().filter(doc.find('dl dt#term-1')).text()`, `"term 1"`},
		// find
		{`doc.find('head title').text()`, `"Fixture page"`},
		{`doc.find('dl').find(doc.find('dt')).size()`, `3`},
		// first, last
		{`doc.find('dt').first().text()`, `"term 1"`},
		{`doc.find('dt').last().text()`, `"term 3"`},
		// get
		{`doc.find('dt').get(0).id()`, `"term-1"`},
		{`doc.find('dt').get(-1).id()`, `"term-3"`},
		{`doc.find('dt').get(9)`, `undefined`},
		{`doc.find('dt').get().map((el) => el.id())`, `["term-1","term-2","term-3"]`},
		// has
		{`doc.find('li').has('ul').attr('class')`, `"item-ii"`},
		{`doc.find('li').has(doc.find('.item-b')).size()`, `1`},
		// html
		{`doc.find('dt').html()`, `"term 1"`},
		{`doc.find('#ii ul').html()`, `"<li class=\"item-a\">A</li><li class=\"item-b\">B</li>"`},
		{`doc.find('nothing').html()`, `undefined`},
		// is
		{`doc.find('dl').children().is('dd')`, `true`},
		{`doc.find('dt').is('dd')`, `false`},
		{`doc.find('dl').children().is((i, s) => s.text() === 'hola')`, `false`},
		{`doc.find('dl').children().is((i, s) => s.text() === 'term 3')`, `true`},
		{`doc.find('dl').children().is(doc.find('dt').first())`, `true`},
		// map
		{`doc.find('dt').map((i, s) => i + s.text())`, `["0term 1","1term 2","2term 3"]`},
		{`doc.find('dt').map(function () { return this.attr('id'); })`, `["term-1","term-2","term-3"]`},
		// next, nextAll, nextUntil
		{`doc.find('#term-1').next().text()`, `"definition 1-a"`},
		{`doc.find('#term-1').next('dt').size()`, `0`},
		{`doc.find('#term-2').nextAll().size()`, `3`},
		{`doc.find('#term-2').nextAll('dd').size()`, `2`},
		{`doc.find('#term-2').nextUntil('dt').size()`, `1`},
		{`doc.find('#term-1').nextUntil('#term-3', 'dd').size()`, `3`},
		{`doc.find('#term-1').nextUntil(doc.find('#term-3')).size()`, `4`},
		{`doc.find('#term-1').nextUntil().size()`, `6`},
		{`doc.find('#term-1').nextUntil(null, 'dt').size()`, `2`},
		// not
		{`doc.find('dl').children().not('dt').size()`, `4`},
		{`doc.find('dl').children().not((i, s) => s.text().startsWith('definition')).size()`, `3`},
		{`doc.find('dl').children().not(doc.find('dt')).size()`, `4`},
		// parent, parents, parentsUntil
		{`doc.find('li.item-a').parent().attr('class')`, `"level-2"`},
		{`doc.find('li.item-a').parent('div').size()`, `0`},
		{`doc.find('li.item-a').parents().size()`, `5`},
		{`doc.find('li.item-a').parents('ul').size()`, `2`},
		{`doc.find('li.item-a').parentsUntil('body').size()`, `3`},
		{`doc.find('li.item-a').parentsUntil('body', 'ul').size()`, `2`},
		{`doc.find('li.item-a').parentsUntil(doc.find('#one')).size()`, `2`},
		// prev, prevAll, prevUntil
		{`doc.find('#term-2').prev().text()`, `"definition 1-b"`},
		{`doc.find('#term-2').prevAll().size()`, `3`},
		{`doc.find('#term-2').prevAll('dt').text()`, `"term 1"`},
		{`doc.find('#term-3').prevUntil('dt').size()`, `1`},
		{`doc.find('#term-3').prevUntil('#term-1', 'dd').size()`, `3`},
		// serialize, serializeArray, serializeObject
		{`doc.find('#login').serialize()`,
			`"username=ada&password=&remember=on&plan=pro&colour=Green&tags=a&tags=c&note=line1%0D%0Aline2&age=36"`},
		{`parseHTML('<form><input name="username"></form>').find('form').serialize()`, `"username="`},
		{`parseHTML('<form><fieldset><input name="a" value="1"></fieldset><input name="b"></form>').find('fieldset').serialize()`, `"a=1"`},
		{`parseHTML('<form><input name="q" value="a b&c=d/é!"></form>').find('form').serialize()`, `"q=a+b%26c%3Dd%2F%C3%A9!"`},
		{`doc.find('#login').serializeArray().slice(0, 2)`, `[{"name":"username","value":"ada"},{"name":"password","value":""}]`},
		{`doc.find('#login input[name=username], #login textarea').serializeArray()`,
			`[{"name":"username","value":"ada"},{"name":"note","value":"line1\r\nline2"}]`},
		{`doc.find('#login').serializeObject()`,
			`{"username":"ada","password":"","remember":"on","plan":"pro","colour":"Green","tags":["a","c"],"note":"line1\r\nline2","age":"36"}`},
		// single
		{`doc.single('dt').text()`, `"term 1"`},
		{`doc.single('dt').size()`, `1`},
		// size
		{`doc.find('dt').size()`, `3`},
		{`doc.find('nothing').size()`, `0`},
		// slice
		{`doc.find('dl').children().slice(4).text()`, `"definition 2-aterm 3definition 3-a"`},
		{`doc.find('dl').children().slice(2, 4).text()`, `"definition 1-bterm 2"`},
		{`doc.find('dl').children().slice(-2).text()`, `"term 3definition 3-a"`},
		{`doc.find('dl').children().slice(5, 2).size()`, `0`},
		// text
		{`doc.find('#mixed').text()`, `"text  bold"`},
		// toArray
		{`doc.find('dt').toArray().map((s) => s.text())`, `["term 1","term 2","term 3"]`},
		{`doc.find('dt').toArray()[2].size()`, `1`},
		// val
		{`doc.find('#user').val()`, `"ada"`},
		{`doc.find('[name=remember]').val()`, `"on"`},
		{`doc.find('[name=colour]').val()`, `"Green"`},
		{`doc.find('[name=colour] option').val()`, `"r"`},
		{`doc.find('[name=tags]').val()`, `["a","c"]`},
		{`doc.find('[name=note]').val()`, `"line1\nline2"`},
		{`doc.find('button').val()`, `"login"`},
		{`doc.find('nothing').val()`, `undefined`},
		{`parseHTML('<select><option disabled>x</option><option>y</option></select>').find('select').val()`, `"y"`},
	})
}

// TestElementMethods reads the Elements of the fixture: the DOM-like
// methods of every node and those k6 adds for links, forms, selects,
// options, labels and tables.
func TestElementMethods(t *testing.T) {
	rt := newVU(t)
	if _, err := rt.RunString(`
globalThis.link = doc.find('#link').get(0);
globalThis.dl = doc.find('#terms').get(0);
globalThis.one = doc.find('#one').get(0);`); err != nil {
		t.Fatal(err)
	}
	check(t, rt, []expectation{
		{`link.nodeName()`, `"a"`},
		{`link.nodeType()`, `1`},
		{`link.nodeValue()`, `undefined`},
		{`link.id()`, `"link"`},
		{`link.textContent()`, `"Example"`},
		{`link.innerHTML()`, `"Example"`},
		{`doc.find('#mixed').get(0).innerHTML()`, `"text <!-- note --> <b>bold</b>"`},
		{`link.getAttribute('rel')`, `"prev next"`},
		{`link.getAttribute('nope')`, `undefined`},
		{`link.hasAttribute('href')`, `true`},
		{`link.hasAttribute('nope')`, `false`},
		{`link.hasAttributes()`, `true`},
		{`link.className()`, `undefined`},
		{`Object.keys(link.attributes()).sort()`, `["href","id","rel"]`},
		{`link.attributes().rel.value`, `"prev next"`},
		{`link.attributes().rel.name`, `"rel"`},
		{`link.attributes().id.ownerElement.id()`, `"link"`},
		{`link.getAttributeNode('rel').value`, `"prev next"`},
		{`link.getAttributeNode('rel').localName()`, `"rel"`},
		{`link.getAttributeNode('nope')`, `undefined`},
		{`link.toString()`, `"[object html.Node]"`},
		{`link.namespaceURI()`, `"http://www.w3.org/1999/xhtml"`},
		{`link.isDefaultNamespace()`, `true`},
		// hyperlink methods
		{`[link.protocol(), link.username(), link.password(), link.host(), link.hostname(), link.port()]`,
			`["http:","user","pw","example.com:8080","example.com","8080"]`},
		{`[link.origin(), link.pathname(), link.search(), link.hash(), link.text()]`,
			`["http://example.com:8080","/path/x","?q=1","#frag","Example"]`},
		{`link.relList()`, `["prev","next"]`},
		{`parseHTML('<a href="http://username:password@example.com:80">6</a>').find('a').get(0).host()`, `"example.com"`},
		{`doc.find('#rel').get(0).pathname()`, `"/next"`},
		{`doc.find('link').get(0).relList()`, `["stylesheet","alternate"]`},
		// text and comment nodes
		{`doc.find('#mixed').contents().get(0).nodeType()`, `3`},
		{`doc.find('#mixed').contents().get(0).nodeName()`, `"#text"`},
		{`doc.find('#mixed').contents().get(0).nodeValue()`, `"text "`},
		{`doc.find('#mixed').contents().get(1).nodeType()`, `8`},
		{`doc.find('#mixed').contents().get(1).nodeName()`, `"#comment"`},
		{`doc.find('#mixed').contents().get(1).textContent()`, `" note "`},
		// the tree
		{`dl.childElementCount()`, `7`},
		{`dl.children().length`, `7`},
		{`dl.childNodes().length`, `15`},
		{`dl.firstChild().nodeType()`, `3`},
		{`dl.firstElementChild().id()`, `"term-1"`},
		{`dl.lastElementChild().textContent()`, `"definition 3-a"`},
		{`dl.parentElement().nodeName()`, `"body"`},
		{`dl.parentNode().nodeName()`, `"body"`},
		{`dl.hasChildNodes()`, `true`},
		{`dl.nextElementSibling().id()`, `"one"`},
		{`dl.previousElementSibling()`, `undefined`},
		{`dl.previousSibling().nodeType()`, `3`},
		{`doc.find('#term-2').get(0).previousElementSibling().textContent()`, `"definition 1-b"`},
		{`doc.find('#term-2').get(0).nextSibling().nodeType()`, `3`},
		{`dl.ownerDocument().nodeName()`, `"#document"`},
		{`doc.get(0).nodeType()`, `9`},
		{`doc.get(0).ownerDocument()`, `undefined`},
		{`doc.find('html').get(0).lang()`, `"en"`},
		{`one.classList()`, `["level-1"]`},
		{`one.className()`, `"level-1"`},
		{`one.getElementsByTagName('LI').length`, `5`},
		{`one.getElementsByClassName('item-a').map((el) => el.textContent())`, `["A"]`},
		{`one.querySelector('li.item-b').textContent()`, `"B"`},
		{`one.querySelector('table')`, `undefined`},
		{`one.querySelectorAll('li').length`, `5`},
		{`one.matches('ul.level-1')`, `true`},
		{`one.matches('ol')`, `false`},
		{`one.contains(doc.find('.item-b').get(0))`, `true`},
		{`one.contains(one)`, `true`},
		{`one.contains(dl)`, `false`},
		{`one.isSameNode(doc.find('ul').get(0))`, `true`},
		{`one.isSameNode(dl)`, `false`},
		{`parseHTML('<p>a</p><p>a</p>').find('p').get(0).isEqualNode(parseHTML('<p>a</p>').find('p').get(0))`, `true`},
		{`doc.find('li.item-a').get(0).selection().closest('ul').attr('class')`, `"level-2"`},
		// forms and their controls
		{`doc.find('#login').get(0).method()`, `"post"`},
		{`doc.find('#login').get(0).length()`, `13`},
		{`doc.find('#login').get(0).elements().length`, `13`},
		{`doc.find('#user').get(0).form().id()`, `"login"`},
		{`doc.find('#user').get(0).name()`, `"username"`},
		{`doc.find('#user').get(0).formMethod()`, `"post"`},
		{`doc.find('#user').get(0).formAction()`, `"/login"`},
		{`doc.find('#user').get(0).formEnctype()`, `"application/x-www-form-urlencoded"`},
		{`doc.find('#user').get(0).formNoValidate()`, `false`},
		{`doc.find('#user').get(0).labels().map((l) => l.textContent())`, `["User"]`},
		{`doc.find('[name=age]').get(0).labels().length`, `1`},
		{`doc.find('label').get(0).control().id()`, `"user"`},
		{`doc.find('label').get(1).control().name()`, `"age"`},
		{`doc.find('label').get(0).form().id()`, `"login"`},
		{`doc.find('button').get(0).value()`, `"login"`},
		{`parseHTML('<button><b>Go</b></button>').find('button').get(0).value()`, `"<b>Go</b>"`},
		{`doc.find('textarea').get(0).length()`, `11`},
		{`doc.find('textarea').get(0).form().id()`, `"login"`},
		// select and option
		{`(() => { const s = doc.find('[name=colour]').get(0); return [s.length(), s.options().length, s.selectedIndex(), s.value(), s.type(), s.selectedOptions().length]; })()`,
			`[2,2,1,"Green","select-one",1]`},
		{`(() => { const s = doc.find('[name=tags]').get(0); return [s.type(), s.selectedOptions().map((o) => o.value()), s.value()]; })()`,
			`["select-multiple",["a","c"],"a"]`},
		{`(() => { const o = doc.find('option').get(0); return [o.value(), o.text(), o.label(), o.index(), o.disabled(), o.form().id()]; })()`,
			`["r","Red","Red",0,false,"login"]`},
		{`doc.find('option').get(1).index()`, `1`},
		// title and table
		{`doc.find('title').get(0).text()`, `"Fixture page"`},
		{`(() => { const t = doc.find('#t').get(0); return [t.caption().textContent(), t.tHead().nodeName(), t.tBodies().length, t.rows().length]; })()`,
			`["Cap","thead",1,3]`},
		{`doc.find('#t tbody tr').get(0).cells().length`, `2`},
		{`doc.find('#t tbody tr').get(1).rowIndex()`, `2`},
		{`doc.find('#t tbody tr').get(1).sectionRowIndex()`, `1`},
		{`doc.find('#t td').get(1).colSpan()`, `2`},
		{`doc.find('#t td').get(1).cellIndex()`, `1`},
		{`(() => { const m = parseHTML('<map name="m"><area href="/a"></map><img usemap="#m"><img>').find('map').get(0); return [m.areas().length, m.images().length, m.areas()[0].pathname()]; })()`,
			`[1,1,"/a"]`},
		// an Element of a tag without methods of its own has none of theirs
		{`typeof dl.host`, `"undefined"`},
		{`typeof link.host`, `"function"`},
	})
}

// TestErrors checks that a wrong argument throws a TypeError naming the
// method and the argument, that an invalid selector throws naming it, and
// that an exception in a callback reaches the script.
func TestErrors(t *testing.T) {
	rt := newVU(t)
	for _, c := range []struct {
		expr, want string
		typeError  bool
	}{
		{`parseHTML(1)`, "parseHTML: src must be a string, not number", true},
		{`doc.find(42)`, "Selection.find: selector must be a string or a Selection, not number", true},
		{`doc.find('[')`, `Selection.find: invalid selector "["`, false},
		{`doc.children(1)`, "Selection.children: selector must be a string, not number", true},
		{`doc.attr()`, "Selection.attr: name must be a string, not undefined", true},
		{`doc.find('dt').each('x')`, "Selection.each: fn must be a function, not string", true},
		{`doc.find('dt').map()`, "Selection.map: fn must be a function, not undefined", true},
		{`doc.find('dt').eq('1')`, "Selection.eq: index must be a number, not string", true},
		{`doc.find('dt').slice('1')`, "Selection.slice: start must be a number, not string", true},
		{`doc.find('dt').filter(1)`, "Selection.filter: the argument must be a selector, a Selection or a function, not number", true},
		{`doc.find('dt').get(0).getAttribute(1)`, "Element.getAttribute: name must be a string, not number", true},
		{`doc.find('dt').get(0).contains('x')`, "Element.contains: node must be an Element, not string", true},
		{`doc.find('dt').get(0).querySelector(null)`, "Element.querySelector: selector must be a string, not null", true},
		{`Object.getPrototypeOf(doc).find.call({}, 'a')`, "Selection.find: called on Object, not a Selection", true},
		{`doc.find('dt').each(() => { throw new Error('boom'); })`, "boom", false},
		{`doc.find('dt').filter(() => { throw new Error('bang'); })`, "bang", false},
	} {
		_, err := rt.RunString(c.expr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error = %v, want %q", c.expr, err, c.want)
			continue
		}
		if c.typeError {
			isType, _ := rt.RunString(`(() => { try { ` + c.expr + ` } catch (e) { return e instanceof TypeError; } })()`)
			if !isType.ToBoolean() {
				t.Errorf("%s: the exception is not a TypeError", c.expr)
			}
		}
	}
}
