import { html } from './html';

describe('html template tag (server-rendered pages)', () => {
  it('escapes interpolated text so input cannot become markup', () => {
    const name = '<script>alert("x")</script> & \'y\'';
    expect(html`<p>${name}</p>`.text).toBe('<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>');
  });

  it('keeps nested html, joins lists and drops null, undefined and false', () => {
    const items = ['a<', 'b'].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.text).toBe('<ul><li>a&lt;</li><li>b</li></ul>0');
  });
});
