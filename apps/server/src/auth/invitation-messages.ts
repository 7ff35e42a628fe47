import type { SupportedLocale } from '@users-admin/contract';

// Over 200 lines because it is nine languages of the same texts, side by side as in idp-messages.ts.
/**
 * The texts of the invitation pages (choose a password, sign in elsewhere, a link that no longer
 * works) in the nine languages, each following docs/glossary/<language>.md. `{{org}}`, `{{address}}`
 * and `{{min}}` are filled in; English is the source of the shape.
 */
const en = {
  choosePassword: {
    title: 'Accept the invitation',
    intro: 'Choose a password to sign in to {{org}} as {{address}}.',
    password: 'Password',
    confirm: 'Confirm password',
    submit: 'Accept and sign in',
    tooShort: 'The password must have at least {{min}} characters.',
    mismatch: 'The two passwords are not the same.',
  },
  external: {
    text: 'To accept the invitation to {{org}}, sign in at your organisation’s identity provider with {{address}}.',
    submit: 'Sign in',
  },
  expired: { title: 'This invitation has expired', text: 'Please ask your administrator to resend the invitation.' },
  used: {
    title: 'This invitation has been used',
    text: 'It was accepted already: sign in with your email and password.',
    signIn: 'Sign in',
  },
  replaced: {
    title: 'This invitation was replaced',
    text: 'A newer invitation was sent: open the link in the latest email, or ask your administrator to resend the invitation.',
  },
  invalid: {
    title: 'This invitation is not valid',
    text: 'Check that the whole link from the email was opened, or ask your administrator to resend the invitation.',
  },
} as const;

export type InvitationMessages = {
  readonly [Group in keyof typeof en]: { readonly [Key in keyof (typeof en)[Group]]: string };
};

export const INVITATION_MESSAGES: Readonly<Record<SupportedLocale, InvitationMessages>> = {
  en,
  de: {
    choosePassword: {
      title: 'Einladung annehmen',
      intro: 'Wählen Sie ein Passwort für die Anmeldung bei {{org}} als {{address}}.',
      password: 'Passwort',
      confirm: 'Passwort bestätigen',
      submit: 'Annehmen und anmelden',
      tooShort: 'Das Passwort muss mindestens {{min}} Zeichen lang sein.',
      mismatch: 'Die beiden Passwörter stimmen nicht überein.',
    },
    external: {
      text: 'Um die Einladung zu {{org}} anzunehmen, ist eine Anmeldung beim Identitätsanbieter Ihrer Organisation mit {{address}} nötig.',
      submit: 'Anmelden',
    },
    expired: {
      title: 'Diese Einladung ist abgelaufen',
      text: 'Ihr Administrator kann die Einladung erneut senden: Bitte wenden Sie sich an ihn.',
    },
    used: {
      title: 'Diese Einladung wurde bereits verwendet',
      text: 'Sie wurde bereits angenommen. Zur Anmeldung verwenden Sie Ihre E-Mail-Adresse und Ihr Passwort.',
      signIn: 'Anmelden',
    },
    replaced: {
      title: 'Diese Einladung wurde ersetzt',
      text: 'Eine neuere Einladung wurde gesendet: Öffnen Sie den Link in der neuesten E-Mail, oder Ihr Administrator kann die Einladung erneut senden.',
    },
    invalid: {
      title: 'Diese Einladung ist ungültig',
      text: 'Prüfen Sie, ob der vollständige Link aus der E-Mail geöffnet wurde, oder lassen Sie die Einladung von Ihrem Administrator erneut senden.',
    },
  },
  es: {
    choosePassword: {
      title: 'Aceptar la invitación',
      intro: 'Elija una contraseña para iniciar sesión en {{org}} como {{address}}.',
      password: 'Contraseña',
      confirm: 'Confirmar contraseña',
      submit: 'Aceptar e iniciar sesión',
      tooShort: 'La contraseña debe tener al menos {{min}} caracteres.',
      mismatch: 'Las dos contraseñas no coinciden.',
    },
    external: {
      text: 'Para aceptar la invitación a {{org}}, es necesario iniciar sesión en el proveedor de identidades de su organización con {{address}}.',
      submit: 'Iniciar sesión',
    },
    expired: { title: 'Esta invitación ha caducado', text: 'Pida a su administrador que reenvíe la invitación.' },
    used: {
      title: 'Esta invitación ya se ha usado',
      text: 'Ya se aceptó: para iniciar sesión, use su correo electrónico y su contraseña.',
      signIn: 'Iniciar sesión',
    },
    replaced: {
      title: 'Esta invitación se ha sustituido',
      text: 'Se envió una invitación más reciente: abra el enlace del último correo electrónico o pida a su administrador que reenvíe la invitación.',
    },
    invalid: {
      title: 'Esta invitación no es válida',
      text: 'Compruebe que abrió el enlace completo del correo electrónico o pida a su administrador que reenvíe la invitación.',
    },
  },
  fr: {
    choosePassword: {
      title: 'Accepter l’invitation',
      intro: 'Choisissez un mot de passe pour vous connecter à {{org}} en tant que {{address}}.',
      password: 'Mot de passe',
      confirm: 'Confirmer le mot de passe',
      submit: 'Accepter et se connecter',
      tooShort: 'Le mot de passe doit comporter au moins {{min}} caractères.',
      mismatch: 'Les deux mots de passe ne sont pas identiques.',
    },
    external: {
      text: 'Pour accepter l’invitation à {{org}}, une connexion au fournisseur d’identité de votre organisation avec {{address}} est nécessaire.',
      submit: 'Se connecter',
    },
    expired: { title: 'Cette invitation a expiré', text: 'Demandez à votre administrateur de renvoyer l’invitation.' },
    used: {
      title: 'Cette invitation a déjà été utilisée',
      text: 'Elle a déjà été acceptée : pour vous connecter, utilisez votre adresse e-mail et votre mot de passe.',
      signIn: 'Se connecter',
    },
    replaced: {
      title: 'Cette invitation a été remplacée',
      text: 'Une invitation plus récente a été envoyée : ouvrez le lien du dernier e-mail, ou demandez à votre administrateur de renvoyer l’invitation.',
    },
    invalid: {
      title: 'Cette invitation n’est pas valide',
      text: 'Vérifiez que le lien complet de l’e-mail a été ouvert, ou demandez à votre administrateur de renvoyer l’invitation.',
    },
  },
  it: {
    choosePassword: {
      title: 'Accetta l’invito',
      intro: 'Scegliere una password per accedere a {{org}} come {{address}}.',
      password: 'Password',
      confirm: 'Conferma password',
      submit: 'Accetta e accedi',
      tooShort: 'La password deve contenere almeno {{min}} caratteri.',
      mismatch: 'Le due password non coincidono.',
    },
    external: {
      text: 'Per accettare l’invito a {{org}}, accedere al provider di identità dell’organizzazione con {{address}}.',
      submit: 'Accedi',
    },
    expired: { title: 'Questo invito è scaduto', text: 'Chiedere all’amministratore di reinviare l’invito.' },
    used: {
      title: 'Questo invito è già stato usato',
      text: 'È già stato accettato: per accedere, usare l’email e la password.',
      signIn: 'Accedi',
    },
    replaced: {
      title: 'Questo invito è stato sostituito',
      text: 'È stato inviato un invito più recente: aprire il link dell’ultima email o chiedere all’amministratore di reinviare l’invito.',
    },
    invalid: {
      title: 'Questo invito non è valido',
      text: 'Verificare di aver aperto il link completo dell’email o chiedere all’amministratore di reinviare l’invito.',
    },
  },
  ja: {
    choosePassword: {
      title: '招待を承諾',
      intro: '{{org}} に {{address}} としてサインインするためのパスワードを設定してください。',
      password: 'パスワード',
      confirm: 'パスワードの確認',
      submit: '承諾してサインイン',
      tooShort: 'パスワードは {{min}} 文字以上にしてください。',
      mismatch: '2 つのパスワードが一致しません。',
    },
    external: {
      text: '{{org}} への招待を承諾するには、組織の ID プロバイダーに {{address}} でサインインしてください。',
      submit: 'サインイン',
    },
    expired: { title: 'この招待は期限切れです', text: '管理者に招待の再送信を依頼してください。' },
    used: {
      title: 'この招待は使用済みです',
      text: 'この招待は承諾済みです。メールアドレスとパスワードでサインインしてください。',
      signIn: 'サインイン',
    },
    replaced: {
      title: 'この招待は置き換えられました',
      text: '新しい招待が送信されています。最新のメールのリンクを開くか、管理者に招待の再送信を依頼してください。',
    },
    invalid: {
      title: 'この招待のリンクは正しくありません',
      text: 'メールのリンク全体が開かれているかを確認するか、管理者に招待の再送信を依頼してください。',
    },
  },
  nl: {
    choosePassword: {
      title: 'Uitnodiging accepteren',
      intro: 'Kies een wachtwoord voor de aanmelding bij {{org}} als {{address}}.',
      password: 'Wachtwoord',
      confirm: 'Wachtwoord bevestigen',
      submit: 'Accepteren en aanmelden',
      tooShort: 'Het wachtwoord moet minstens {{min}} tekens hebben.',
      mismatch: 'De twee wachtwoorden zijn niet gelijk.',
    },
    external: {
      text: 'Om de uitnodiging voor {{org}} te accepteren, is een aanmelding bij de identiteitsprovider van uw organisatie met {{address}} nodig.',
      submit: 'Aanmelden',
    },
    expired: {
      title: 'Deze uitnodiging is verlopen',
      text: 'Neem contact op met uw beheerder om de uitnodiging opnieuw verzonden te krijgen.',
    },
    used: {
      title: 'Deze uitnodiging is al gebruikt',
      text: 'Ze is al geaccepteerd: gebruik uw e-mailadres en wachtwoord voor de aanmelding.',
      signIn: 'Aanmelden',
    },
    replaced: {
      title: 'Deze uitnodiging is vervangen',
      text: 'Er is een nieuwere uitnodiging verzonden: open de link in de nieuwste e-mail, of neem contact op met uw beheerder om de uitnodiging opnieuw verzonden te krijgen.',
    },
    invalid: {
      title: 'Deze uitnodiging is niet geldig',
      text: 'Controleer of de volledige link uit de e-mail is geopend, of neem contact op met uw beheerder om de uitnodiging opnieuw verzonden te krijgen.',
    },
  },
  pt: {
    choosePassword: {
      title: 'Aceitar o convite',
      intro: 'Escolha uma senha para fazer login em {{org}} como {{address}}.',
      password: 'Senha',
      confirm: 'Confirmar senha',
      submit: 'Aceitar e fazer login',
      tooShort: 'A senha deve ter pelo menos {{min}} caracteres.',
      mismatch: 'As duas senhas não são iguais.',
    },
    external: {
      text: 'Para aceitar o convite para {{org}}, faça login no provedor de identidade da sua organização com {{address}}.',
      submit: 'Fazer login',
    },
    expired: { title: 'Este convite expirou', text: 'Peça ao seu administrador para reenviar o convite.' },
    used: {
      title: 'Este convite já foi usado',
      text: 'Ele já foi aceito: faça login com seu e-mail e sua senha.',
      signIn: 'Fazer login',
    },
    replaced: {
      title: 'Este convite foi substituído',
      text: 'Um convite mais recente foi enviado: abra o link do último e-mail ou peça ao seu administrador para reenviar o convite.',
    },
    invalid: {
      title: 'Este convite não é válido',
      text: 'Verifique se o link completo do e-mail foi aberto ou peça ao seu administrador para reenviar o convite.',
    },
  },
  zh: {
    choosePassword: {
      title: '接受邀请',
      intro: '请设置密码，以 {{address}} 登录 {{org}}。',
      password: '密码',
      confirm: '确认密码',
      submit: '接受并登录',
      tooShort: '密码至少需要 {{min}} 个字符。',
      mismatch: '两次输入的密码不一致。',
    },
    external: { text: '要接受 {{org}} 的邀请，请使用 {{address}} 登录您组织的身份提供商。', submit: '登录' },
    expired: { title: '此邀请已过期', text: '请联系您的管理员重新发送邀请。' },
    used: { title: '此邀请已被使用', text: '此邀请已被接受：请使用您的电子邮件地址和密码登录。', signIn: '登录' },
    replaced: {
      title: '此邀请已被替换',
      text: '已发送一封更新的邀请：请打开最新电子邮件中的链接，或联系您的管理员重新发送邀请。',
    },
    invalid: {
      title: '此邀请无效',
      text: '请确认已打开电子邮件中的完整链接，或联系您的管理员重新发送邀请。',
    },
  },
};

/** A text with its `{{placeholders}}` filled. */
export const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');
