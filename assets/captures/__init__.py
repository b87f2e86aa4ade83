"""Captures: a receipt, a transfer screenshot or a statement file shared or uploaded by its owner, kept in
Django's storage and read into bank-text drafts (docs/contract/rest.md, "Captures"; CONTRACT §11).

- `files`     what the bytes are (their magic, never the name alone) and how large each kind may be
- `answer`    the JSON schema the model answers in, and the checks its answer passes before it becomes drafts
- `reader`    where the model reader is plugged in (the chat app registers it: nothing here imports chat)
- `services`  a capture made (read, stored, drafted, all or nothing), an XLSX statement imported on confirmation
- `closing`   a photo or PDF capture whose drafts were all discarded: marked discarded, its file deleted
"""
