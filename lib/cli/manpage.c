/* The manual page and the bash completion script, written from the same catalogue and
 * help texts as --help, so neither can drift from what the command takes. The build writes
 * both (`trainsize help --man`, `trainsize help --bash-completion`) and installs them. */
#include "cli.h"

#include <string.h>

/* Text for roff: backslashes as \e, a line that would start a request ('.', '\'')
 * guarded with \&, hyphens as \- where they are option dashes (before a letter). */
static void roff_text(ts_out *o, const char *s)
{
    int line_start = 1;
    for (; *s; s++) {
        if (line_start && (*s == '.' || *s == '\'')) ts_out_puts(o, "\\&");
        line_start = *s == '\n';
        if (*s == '\\') ts_out_puts(o, "\\e");
        else if (*s == '-' && (s[1] == '-' || (s[1] >= 'a' && s[1] <= 'z'))) ts_out_puts(o, "\\-");
        else ts_out_putc(o, *s);
    }
}

/* A command's whole help as preformatted text (its layout is already the help's). */
static void verbatim_help(ts_out *o, enum ts_cli_help_topic topic)
{
    ts_out text;
    ts_out_init(&text);
    ts_cli_help_text(&text, topic);
    ts_out_puts(o, ".nf\n");
    if (text.data) {
        ts_out_putc(&text, '\0');
        roff_text(o, text.data);
    }
    ts_out_puts(o, "\n.fi\n");
    ts_out_free(&text);
}

int ts_cli_print_man(const ts_cli *cx)
{
    ts_out o;
    size_t i, n = trainsize_param_count();
    char doc[2048];

    ts_out_init(&o);
    ts_out_printf(&o, ".TH TRAINSIZE 1 \"\" \"trainsize %s\" \"User Commands\"\n", trainsize_version_string());
    ts_out_puts(&o, ".SH NAME\ntrainsize \\- what it takes to train a model: GPU memory, servers, time and cost\n"
                    ".SH SYNOPSIS\n.B trainsize\n[\\fIOPTIONS\\fR]\n.br\n"
                    ".B trainsize\n\\fBestimate\\fR|\\fBplan\\fR|\\fBmodels\\fR|\\fBgpus\\fR|\\fBhelp\\fR "
                    "[\\fIOPTIONS\\fR]\n.SH DESCRIPTION\n");
    verbatim_help(&o, TS_CLI_HELP_MAIN);
    ts_out_puts(&o, ".SH ESTIMATE\n");
    ts_out_puts(&o, "Sizes one training job: memory per GPU (the most loaded GPU), the servers it needs, "
                    "the time and the cost. Every option is \\fB\\-\\-NAME VALUE\\fR or "
                    "\\fB\\-\\-NAME=VALUE\\fR; see \\fBtrainsize estimate \\-\\-help\\fR for the model "
                    "and output options. The options that read a file, then the job's parameters:\n");
    for (i = 0; i < ts_cli_file_option_count; i++) {
        ts_out_puts(&o, ".TP\n.B \\-\\-");
        roff_text(&o, ts_cli_file_options[i].name);
        ts_out_printf(&o, " \\fI%s\\fR\n", ts_cli_file_options[i].metavar);
        roff_text(&o, ts_cli_file_options[i].doc);
        ts_out_putc(&o, '\n');
    }
    for (i = 0; i < n; i++) {
        const trainsize_param_info *p = trainsize_param_at(i);
        const char *meta;
        if (!p || !p->name) continue;
        meta = ts_cli_param_metavar(p);
        ts_cli_param_doc(p, doc, sizeof doc);
        ts_out_puts(&o, ".TP\n.B \\-\\-");
        roff_text(&o, p->name);
        if (meta[0]) ts_out_printf(&o, " \\fI%s\\fR", meta);
        ts_out_putc(&o, '\n');
        roff_text(&o, doc);
        ts_out_putc(&o, '\n');
    }
    ts_out_puts(&o, ".SH PLAN\n");
    verbatim_help(&o, TS_CLI_HELP_PLAN);
    ts_out_puts(&o, ".SH MODELS\n");
    verbatim_help(&o, TS_CLI_HELP_MODELS);
    ts_out_puts(&o, ".SH GPUS\n");
    verbatim_help(&o, TS_CLI_HELP_GPUS);
    ts_out_puts(&o, ".SH CALIBRATE\n");
    verbatim_help(&o, TS_CLI_HELP_CALIBRATE);
    ts_out_puts(&o, ".SH CAPACITY\n");
    verbatim_help(&o, TS_CLI_HELP_CAPACITY);
    ts_out_puts(&o, ".SH EXIT STATUS\n0 when an estimate or listing was produced (whether or not the job "
                    "fits), 2 for invalid input (one line on standard error naming the option, nothing "
                    "on standard output), 1 for any other failure.\n"
                    ".SH SEE ALSO\nThe library's header \\fItrainsize.h\\fR and its pkg-config module "
                    "\\fBlibtrainsize\\fR.\n");
    return ts_cli_flush(cx, &o);
}

/* The options the plan help lists of its own ("  --NAME" at a line's start), after the
 * estimate's. */
static void plan_options(ts_out *o)
{
    ts_out text;
    const char *s;
    ts_out_init(&text);
    ts_cli_help_text(&text, TS_CLI_HELP_PLAN);
    ts_out_putc(&text, '\0');
    for (s = text.data; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : s + strlen(s)) {
        size_t k = 0;
        if (strncmp(s, "  --", 4) != 0) continue;
        while (s[2 + k] && s[2 + k] != ' ' && s[2 + k] != '\n') k++;
        ts_out_printf(o, " %.*s", (int)k, s + 2);
    }
    ts_out_free(&text);
}

/* "a|b|c" as "a b c" */
static void words(ts_out *o, const char *choices)
{
    for (; choices && *choices; choices++) ts_out_putc(o, *choices == '|' ? ' ' : *choices);
}

int ts_cli_print_bash_completion(const ts_cli *cx)
{
    ts_out o;
    size_t i, n = trainsize_param_count();

    ts_out_init(&o);
    ts_out_printf(&o, "# bash completion for trainsize %s (written by `trainsize help --bash-completion`)\n",
                  trainsize_version_string());
    ts_out_puts(&o, "_trainsize() {\n"
                    "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} values=\n"
                    "    local commands='estimate plan models gpus calibrate capacity help'\n"
                    "    case $prev in\n"
                    "    --hf-config|--gpu-file|--calibration|--safetensors) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
                    "    --model|--teacher) values='");
    for (i = 0; i < trainsize_model_count(); i++)
        ts_out_printf(&o, "%s%s", i ? " " : "", trainsize_model_at(i)->name);
    ts_out_puts(&o, "' ;;\n    --gpu) values='");
    for (i = 0; i < trainsize_gpu_count(); i++)
        ts_out_printf(&o, "%s%s", i ? " " : "", trainsize_gpu_at(i)->name);
    ts_out_puts(&o, "' ;;\n");
    for (i = 0; i < n; i++) {
        const trainsize_param_info *p = trainsize_param_at(i);
        if (!p || !p->name) continue;
        if (p->kind == TRAINSIZE_PARAM_CHOICE && p->choices) {
            ts_out_printf(&o, "    --%s) values='", p->name);
            words(&o, p->choices);
            ts_out_puts(&o, "' ;;\n");
        } else if (p->kind == TRAINSIZE_PARAM_BOOL) {
            /* a flag alone means true: its value is offered unless an option is typed */
            ts_out_printf(&o, "    --%s) [[ $cur == -* ]] || values='true false' ;;\n", p->name);
        }
    }
    ts_out_puts(&o, "    --objective) values='cost time owned' ;;\n"
                    "    --plan-ranking) values='best pareto' ;;\n"
                    "    esac\n"
                    "    if [[ -n $values ]]; then COMPREPLY=($(compgen -W \"$values\" -- \"$cur\")); return; fi\n"
                    "    if [[ $COMP_CWORD -eq 1 && $cur != -* ]] || [[ ${COMP_WORDS[1]} == help && $COMP_CWORD -eq 2 ]]; then\n"
                    "        COMPREPLY=($(compgen -W \"$commands\" -- \"$cur\")); return\n"
                    "    fi\n"
                    "    local options='--help --json --model --hf-config --hf-model --revision --safetensors --gpu-file "
                    "--calibration");
    for (i = 0; i < n; i++) {
        const trainsize_param_info *p = trainsize_param_at(i);
        if (p && p->name && strcmp(p->name, "model") != 0) ts_out_printf(&o, " --%s", p->name);
    }
    ts_out_puts(&o, "'\n    [[ ${COMP_WORDS[1]} == plan ]] && options+='");
    plan_options(&o);
    ts_out_puts(&o, "'\n    [[ $COMP_CWORD -eq 1 ]] && options+=' --version'\n"
                    "    COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n"
                    "}\n"
                    "complete -F _trainsize trainsize\n");
    return ts_cli_flush(cx, &o);
}
