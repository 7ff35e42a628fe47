import type { SupportedLocale } from '@users-admin/contract';

/**
 * The invitation e-mail's texts in the nine languages, each following docs/glossary/<language>.md.
 * `{{name}}`, `{{inviter}}`, `{{org}}` and `{{date}}` are filled in; English is the source of the shape.
 */
const en = {
  subject: 'Invitation to join {{org}}',
  greeting: 'Hello {{name}},',
  invited: '{{inviter}} has invited you to join the organisation {{org}}.',
  action: 'Open this link to accept the invitation and sign in:',
  button: 'Accept invitation',
  expiry: 'The link works once and expires on {{date}}.',
  ignore: 'If you did not expect this invitation, you can ignore this email.',
} as const;

export type InvitationMailMessages = { readonly [Key in keyof typeof en]: string };

export const INVITATION_MAIL_MESSAGES: Readonly<Record<SupportedLocale, InvitationMailMessages>> = {
  en,
  de: {
    subject: 'Einladung zur Organisation {{org}}',
    greeting: 'Guten Tag {{name}},',
    invited: '{{inviter}} hat Sie in die Organisation {{org}} eingeladen.',
    action: 'Über diesen Link nehmen Sie die Einladung an und sind danach angemeldet:',
    button: 'Einladung annehmen',
    expiry: 'Der Link gilt einmal und läuft am {{date}} ab.',
    ignore: 'Falls Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
  },
  es: {
    subject: 'Invitación para unirse a {{org}}',
    greeting: 'Hola, {{name}}:',
    invited: '{{inviter}} le ha invitado a unirse a la organización {{org}}.',
    action: 'Abra este enlace para aceptar la invitación e iniciar sesión:',
    button: 'Aceptar invitación',
    expiry: 'El enlace solo se puede usar una vez y caduca el {{date}}.',
    ignore: 'Si no esperaba esta invitación, puede ignorar este correo electrónico.',
  },
  fr: {
    subject: 'Invitation à rejoindre {{org}}',
    greeting: 'Bonjour {{name}},',
    invited: '{{inviter}} vous a invité à rejoindre l’organisation {{org}}.',
    action: 'Ouvrez ce lien pour accepter l’invitation et vous connecter :',
    button: 'Accepter l’invitation',
    expiry: 'Le lien ne fonctionne qu’une fois et expire le {{date}}.',
    ignore: 'Si vous n’attendiez pas cette invitation, vous pouvez ignorer cet e-mail.',
  },
  it: {
    subject: 'Invito a unirsi a {{org}}',
    greeting: 'Buongiorno {{name}},',
    invited: '{{inviter}} ha inviato un invito a unirsi all’organizzazione {{org}}.',
    action: 'Aprire questo link per accettare l’invito e accedere:',
    button: 'Accetta l’invito',
    expiry: 'Il link può essere usato una sola volta e scade il {{date}}.',
    ignore: 'Se questo invito non era atteso, ignorare questa email.',
  },
  ja: {
    subject: '{{org}} への招待',
    greeting: '{{name}} 様',
    invited: '{{inviter}} さんから組織「{{org}}」への招待が届いています。',
    action: '次のリンクを開いて招待を承諾し、サインインしてください。',
    button: '招待を承諾',
    expiry: 'このリンクは 1 回のみ有効で、{{date}} に期限切れとなります。',
    ignore: 'この招待に心当たりがない場合は、このメールを無視してください。',
  },
  nl: {
    subject: 'Uitnodiging voor {{org}}',
    greeting: 'Beste {{name}},',
    invited: '{{inviter}} heeft u uitgenodigd voor de organisatie {{org}}.',
    action: 'Open deze link om de uitnodiging te accepteren; daarna bent u aangemeld:',
    button: 'Uitnodiging accepteren',
    expiry: 'De link werkt één keer en verloopt op {{date}}.',
    ignore: 'Als u deze uitnodiging niet verwachtte, kunt u deze e-mail negeren.',
  },
  pt: {
    subject: 'Convite para participar de {{org}}',
    greeting: 'Olá, {{name}},',
    invited: '{{inviter}} convidou você para participar da organização {{org}}.',
    action: 'Abra este link para aceitar o convite e fazer login:',
    button: 'Aceitar convite',
    expiry: 'O link funciona uma única vez e expira em {{date}}.',
    ignore: 'Se você não esperava este convite, ignore este e-mail.',
  },
  zh: {
    subject: '加入 {{org}} 的邀请',
    greeting: '{{name}}，您好：',
    invited: '{{inviter}} 邀请您加入组织“{{org}}”。',
    action: '请打开以下链接接受邀请并登录：',
    button: '接受邀请',
    expiry: '此链接仅可使用一次，将于 {{date}} 过期。',
    ignore: '如果您没有预期收到此邀请，可以忽略这封电子邮件。',
  },
};
