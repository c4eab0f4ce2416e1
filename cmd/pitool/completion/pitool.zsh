#compdef pitool
# zsh completion for pitool. Load it (after compinit) with
#   source <(pitool completion zsh)
# or save it as _pitool in a folder of $fpath.
# pitool itself lists the commands and flags that can follow (its hidden
# --generate-bash-completion flag); file names are completed otherwise.
_pitool() {
  local -a opts
  local cur=${words[CURRENT]}
  if [[ $cur == -* ]]; then
    opts=("${(@f)$("${(@)words[1,CURRENT-1]}" "$cur" --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$("${(@)words[1,CURRENT-1]}" --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ -n ${opts[1]} ]]; then
    compadd -a opts
  else
    _files
  fi
}
if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
  _pitool "$@"
else
  compdef _pitool pitool
fi
