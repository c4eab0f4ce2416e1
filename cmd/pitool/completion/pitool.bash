# bash completion for pitool. Load it in the current shell with
#   source <(pitool completion bash)
# or install it for every shell:
#   pitool completion bash > /etc/bash_completion.d/pitool
# pitool itself lists the commands and flags that can follow (its hidden
# --generate-bash-completion flag); file names are completed otherwise.
_pitool_complete() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local -a words=("${COMP_WORDS[@]:0:COMP_CWORD}")
  local opts
  if [[ $cur == -* ]]; then
    opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o bashdefault -o default -F _pitool_complete pitool
