/* html_page.c - the frame every page of `pathprof html` shares: its
 * inline CSS and scripts (no file is fetched: the site works offline). */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "html_site.h"
#include "out/html_out.h"

/* First in <head>: any error of a script on the page is written into the
 * page itself, where a test (or a reader) finds it. */
static const char error_hook[] =
    "<script>window.addEventListener('error',function(e){var d=document.documentElement;"
    "d.setAttribute('data-js-errors',(d.getAttribute('data-js-errors')||'')+"
    "(e.message||'error')+' ');});</script>\n";

static const char css[] =
    "<style>\n"
    "body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#fff}\n"
    "header,main{padding:0 1.2em}\n"
    "nav{padding:.5em 1.2em;background:#234;color:#fff}nav a{color:#bdf}\n"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}h3{font-size:1em;margin:.8em 0 .3em}\n"
    "table{border-collapse:collapse}td,th{padding:1px 8px;text-align:left;vertical-align:top}\n"
    "th{background:#eee}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "pre,.src td{font:12px/1.35 ui-monospace,monospace}\n"
    ".bar{display:inline-block;height:.7em;background:#46a;vertical-align:middle}\n"
    ".layout{display:flex;gap:1.2em;align-items:flex-start}\n"
    "aside{position:sticky;top:0;max-height:100vh;overflow:auto;min-width:22em;max-width:30em;"
    "font-size:13px}\n"
    ".src{flex:1}.src td{padding:0 6px;white-space:pre}.src td.ln{color:#888;text-align:right}\n"
    ".src td.cnt{text-align:right;color:#555;border-right:1px solid #ccc}\n"
    "tr.hit td.code{background:#d7f5d7}tr.miss td.code{background:#fbd7d7}\n"
    "tr.partial td.code{background:#fbf3c4}\n"
    "tr.hit td.cnt{background:#c2ecc2}tr.miss td.cnt{background:#f5bcbc}"
    "tr.partial td.cnt{background:#f3e49a}\n"
    ".src tr.on td.code{box-shadow:inset 4px 0 #e60;background:#ffd9b3}\n"
    "tr.path{cursor:pointer}tr.path:hover{background:#eef}tr.path.on{background:#ffd9b3}\n"
    ".legend span{padding:0 .5em;margin-right:.5em}\n"
    "#steps{white-space:pre;background:#f6f6f6;padding:.5em;border:1px solid #ddd;max-height:40vh;"
    "overflow:auto;font:12px/1.35 ui-monospace,monospace}\n"
    "ul.tree{list-style:none;padding-left:1.2em;margin:0}ul.tree li{font:12px/1.5 ui-monospace,monospace}\n"
    ".note{color:#a40}\n"
    "</style>\n";

/* Last in <body>: paths become selectable (their lines light up, the
 * steps show), a #p-... fragment selects one when the page opens, and
 * data-ready says the script ran to its end. */
static const char script[] =
    "<script>\n"
    "(function(){\n"
    "  var on=[];\n"
    "  function clear(){on.forEach(function(e){e.classList.remove('on');});on=[];}\n"
    "  function mark(e){if(e){e.classList.add('on');on.push(e);}}\n"
    "  function select(tr,scroll){\n"
    "    clear();mark(tr);\n"
    "    var lines=(tr.getAttribute('data-lines')||'').split(' ').filter(String);\n"
    "    lines.forEach(function(l){mark(document.getElementById('L'+l));});\n"
    "    var st=document.getElementById('steps'),src=document.getElementById('s-'+tr.id);\n"
    "    if(st&&src)st.textContent=src.textContent;\n"
    "    var sel=document.getElementById('selected');\n"
    "    if(sel)sel.textContent=tr.getAttribute('data-title')+': '+lines.length+' lines lit';\n"
    "    var first=document.getElementById('L'+lines[0]);\n"
    "    if(scroll&&first&&first.scrollIntoView)first.scrollIntoView({block:'center'});\n"
    "  }\n"
    "  var rows=document.querySelectorAll('tr.path');\n"
    "  Array.prototype.forEach.call(rows,function(tr){\n"
    "    tr.addEventListener('click',function(){select(tr,true);\n"
    "      if(history.replaceState)history.replaceState(null,'','#'+tr.id);});\n"
    "  });\n"
    "  var h=decodeURIComponent(location.hash.slice(1)),t=h&&document.getElementById(h);\n"
    "  if(t&&t.classList.contains('path'))select(t,false);\n"
    "  document.body.setAttribute('data-ready',String(rows.length));\n"
    "})();\n"
    "</script>\n";

void html_page_begin(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta name=\"generator\" content=\"pathprof html\">\n<title>", out);
    html_text(out, title);
    fputs(" - pathprof</title>\n", out);
    fputs(error_hook, out);
    fputs(css, out);
    fputs("</head>\n<body>\n", out);
}

void html_page_end(FILE *out)
{
    fputs(script, out);
    fputs("</body></html>\n", out);
}

void html_file_page_name(char *buf, size_t size, size_t fi)
{
    snprintf(buf, size, "f%zu.html", fi);
}

void html_func_name(FILE *out, const struct pp_func_meta *m)
{
    html_text(out, m->name);
    if (m->variant) {
        fputs(" <span class=\"note\">[", out);
        html_text(out, m->variant);
        fputs("]</span>", out);
    }
}

size_t html_func_file(const struct site *s, size_t func)
{
    const char *file = s->funcs[func].meta->file;
    size_t i;
    if (!file)
        return SIZE_MAX;
    for (i = 0; i < s->nfiles; i++)
        if (strcmp(s->files[i].name, file) == 0)
            return i;
    return SIZE_MAX;
}
