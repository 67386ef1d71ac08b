"""Where a learner puts the LRS credentials: names only, so `study --help` can say them without importing the
client (the rules that read them are in ``lrs_address``)."""

TOKEN_ENV = "STUDY_LRS_TOKEN"
USER_ENV, PASSWORD_ENV = "STUDY_LRS_USER", "STUDY_LRS_PASSWORD"
CREDENTIALS_FILE = "lrs-credentials.json"
