import GroupIcon from '@mui/icons-material/Group';
import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../utils/visually-hidden.ts';
import { optionInitials, optionKey, optionSearchText, type UserGroupOption } from './user-group-option.ts';

interface CommonProps {
  options: readonly UserGroupOption[];
  /** The visible label and the accessible name of the field; "Users and groups" by default. */
  label?: string;
  placeholder?: string;
  /** Options are on their way (a search on the server). */
  loading?: boolean;
  disabled?: boolean;
  id?: string;
  size?: 'small' | 'medium';
}

export type UserGroupPickerProps = CommonProps &
  (
    | { multiple?: false; value: UserGroupOption | null; onChange: (value: UserGroupOption | null) => void }
    | { multiple: true; value: UserGroupOption[]; onChange: (value: UserGroupOption[]) => void }
  );

const filterOptions = createFilterOptions<UserGroupOption>({ stringify: optionSearchText });

/** Decorative: the name is next to it, and the type is said in words for assistive technology. */
function OptionAvatar({ option }: { option: UserGroupOption }) {
  const size = { width: 32, height: 32 };
  if (option.type === 'group') {
    return (
      <Avatar aria-hidden="true" sx={{ ...size, bgcolor: '#ebe3f7', color: '#4a2a8a' }}>
        <GroupIcon fontSize="small" />
      </Avatar>
    );
  }
  // Dark blue on light blue (8.9:1), as the users table's avatars.
  return (
    <Avatar
      aria-hidden="true"
      sx={{ ...size, fontSize: '0.8125rem', fontWeight: 600, bgcolor: '#dbe7f7', color: '#0b3d91' }}
    >
      {optionInitials(option)}
    </Avatar>
  );
}

/**
 * The design system's user and group picker (SPEC.md §3): searchable by name and email, operated
 * with the keyboard (arrows, Enter, Escape), one option or several (`multiple`). Users show their
 * initials, groups a group icon. Load it with `LazyUserGroupPicker` to keep it out of a page's
 * first render.
 */
export function UserGroupPicker(props: UserGroupPickerProps) {
  const { t } = useTranslation();
  const {
    options,
    label = t('components.userGroupPicker.label'),
    placeholder,
    loading = false,
    disabled,
    id,
    size,
  } = props;

  return (
    <Autocomplete<UserGroupOption, boolean, false, false>
      {...(id ? { id } : {})}
      {...(size ? { size } : {})}
      multiple={props.multiple ?? false}
      value={props.value}
      onChange={(_event, value) => {
        if (props.multiple) props.onChange((value as UserGroupOption[]) ?? []);
        else props.onChange(value as UserGroupOption | null);
      }}
      options={options}
      filterOptions={filterOptions}
      getOptionLabel={(option) => option.label}
      getOptionKey={optionKey}
      isOptionEqualToValue={(option, value) => optionKey(option) === optionKey(value)}
      filterSelectedOptions={props.multiple ?? false}
      loading={loading}
      disabled={disabled ?? false}
      autoHighlight
      clearOnEscape
      noOptionsText={t('components.userGroupPicker.noOptions')}
      loadingText={t('components.userGroupPicker.loading')}
      clearText={t('components.userGroupPicker.clear')}
      openText={t('components.userGroupPicker.open')}
      closeText={t('components.userGroupPicker.close')}
      renderOption={({ key, ...optionProps }, option) => (
        <Box component="li" key={key} {...optionProps} sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          <OptionAvatar option={option} />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" noWrap>
              {option.label}
            </Typography>
            {option.type === 'user' && (
              <Typography variant="caption" component="div" noWrap sx={{ color: 'text.secondary' }}>
                {option.email}
              </Typography>
            )}
          </Box>
          <Box component="span" sx={visuallyHidden}>
            {` (${t(`components.userGroupPicker.${option.type}`)})`}
          </Box>
        </Box>
      )}
      renderInput={(params) => (
        <TextField {...params} label={label} placeholder={placeholder ?? t('components.userGroupPicker.placeholder')} />
      )}
    />
  );
}
