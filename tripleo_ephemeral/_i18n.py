import oslo_i18n

_translators = oslo_i18n.TranslatorFactory(domain='tripleo_ephemeral')

_ = _translators.primary
